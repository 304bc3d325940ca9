// What the bench ran on, beyond os.cpus()'s model name (which a virtual machine may shorten to
// "AMD EPYC"): the vendor's family, model and stepping, the vector extensions the kernels can use,
// and the caches of cpu0 (Linux: /proc/cpuinfo and /sys/devices/system/cpu/cpu0/cache). Elsewhere
// the fields are null and the text says so.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

const read = (file) => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
};

/** The first processor's fields of /proc/cpuinfo as a Map (null off Linux). */
function cpuinfo() {
  const text = read('/proc/cpuinfo');
  if (!text) return null;
  const fields = new Map();
  for (const line of text.split('\n\n')[0].split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) fields.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return fields;
}

/** cpu0's caches: [{ level, type, size, sharedWith }] (e.g. 2, 'Unified', '512K', '0'). */
function caches() {
  const dir = '/sys/devices/system/cpu/cpu0/cache';
  let entries;
  try {
    entries = readdirSync(dir).filter((e) => /^index\d+$/.test(e));
  } catch {
    return [];
  }
  return entries.map((e) => ({
    level: Number(read(`${dir}/${e}/level`)),
    type: read(`${dir}/${e}/type`),
    size: read(`${dir}/${e}/size`),
    sharedWith: read(`${dir}/${e}/shared_cpu_list`),
  }));
}

const VECTOR_FLAGS = ['sse4_2', 'avx', 'avx2', 'fma', 'avx512f', 'avx512_bf16', 'asimd', 'sve'];

/** { model, family, modelNumber, stepping, vector, caches, cores, text } */
export function describeMachine() {
  const info = cpuinfo();
  const flags = new Set((info?.get('flags') ?? info?.get('Features') ?? '').split(/\s+/));
  const machine = {
    model: info?.get('model name') ?? os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    family: info?.get('cpu family') ?? null,
    modelNumber: info?.get('model') ?? null,
    stepping: info?.get('stepping') ?? null,
    vector: VECTOR_FLAGS.filter((f) => flags.has(f)),
    caches: caches(),
    cores: os.cpus().length,
  };
  const cacheText = machine.caches.length
    ? machine.caches
        .map((c) => `L${c.level}${c.type === 'Data' ? 'd' : c.type === 'Instruction' ? 'i' : ''} ${c.size}${c.sharedWith && c.sharedWith.includes('-') ? ` (shared by cpus ${c.sharedWith})` : ''}`)
        .join(', ')
    : 'caches unknown';
  const idText = machine.family !== null ? `family ${machine.family} model ${machine.modelNumber} stepping ${machine.stepping}` : 'family/model unknown';
  machine.text = `${machine.model} (${idText}; ${machine.vector.join(' ') || 'no vector flags read'}); ${cacheText}; ${machine.cores} cores`;
  return machine;
}
