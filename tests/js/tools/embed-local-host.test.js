// The Embed dialog warns that a snippet works only on this machine when its address is local
// (web/site/features/embed/snippets.js localHost): every loopback spelling and file:, and no
// address a reader could reach.
import { describe, expect, it } from 'vitest';
import { localHost } from '../../../web/site/features/embed/snippets.js';

describe("the Embed dialog's this-machine check", () => {
  it.each([
    ['http://127.0.0.1:45971/site/elements.js', '127.0.0.1:45971'],
    ['http://localhost:5173/elements.js', 'localhost:5173'],
    ['http://127.1.2.3/elements.js', '127.1.2.3'],
    ['http://[::1]:8080/elements.js', '[::1]:8080'],
    ['http://0.0.0.0:8080/embed.html', '0.0.0.0:8080'],
    ['file:///home/me/site/elements.js', 'file:///home/me/site/elements.js'],
  ])('%s is this machine (%s)', (url, host) => expect(localHost(url)).toBe(host));

  it.each([
    'https://example.github.io/attention-lab/elements.js',
    'http://192.168.1.20:8080/elements.js', // another machine on the same network can reach it
    'https://localhost.example.com/elements.js',
    'http://127.0.0.1.nip.example/elements.js',
  ])('%s is not', (url) => expect(localHost(url)).toBeNull());
});
