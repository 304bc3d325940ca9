// English words of the explorer's token text field, its resized headline and the guide's Copy
// buttons (spread into ../en.js).
export default {
  'site.resized': 'Resized from “{preset}”: {changes}.',
  'site.resized-size': '{label} {from} → {to}',
  'site.token-text.tokens': 'Token text',
  'site.token-text.queries': 'Query tokens',
  'site.token-text.keyTokens': 'Key tokens',
  'site.token-text-hint':
    'Type a sentence and press Enter: words split at spaces, Chinese or Japanese typed without spaces is split into words; the number of tokens sets the size.',
  'site.token-count': '{count} tokens: the example holds {min} to {max}.',
  'site.tokens-json': 'Not a valid JSON list ({reason}).',
  'site.tokens-strings': 'A JSON list must hold strings only, like ["New York", "is", "big"].',
  'guide.code-copy': 'Copy',
  'guide.code-copy-label': 'Copy the code: {what}',
  'guide.code-copied': 'Copied',
  'guide.code-copy-failed': 'Copying is not allowed here: the code is selected, copy it with the keyboard',
};
