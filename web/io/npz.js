// .npz (numpy.savez, savez_compressed): a zip of .npy members, each a tensor named without '.npy'.
// A 1-d string member named 'tokens' gives the tokens. A PyTorch checkpoint (a zip holding a
// pickle) is refused by name: unpickling runs code.
import { defineEntry } from './fail.js';
import { parseNpy } from './npy.js';
import { readZip } from './zip.js';

/** The members are read one at a time, so only one inflated member is held beside the tensors. */
export async function readNpz(bytes, problem, budget) {
  const tensors = {};
  let tokens;
  for (const member of readZip(bytes, problem, budget.limit)) {
    if (/\.pkl$/.test(member.name))
      throw problem.type(
        `holds a pickle (${member.name}), as PyTorch checkpoints do: refused, never unpickled; save with numpy.savez or safetensors`,
        'file-pickle',
      );
    if (!member.name.endsWith('.npy')) throw problem.type(`member ${member.name} is not a .npy array`);
    const name = member.name.slice(0, -4);
    const array = parseNpy(await member.read(), problem, budget, `member ${member.name}: `);
    if (Object.hasOwn(tensors, name) || (tokens && name === 'tokens')) throw problem.type(`member ${member.name} appears twice`);
    if (array.strings) {
      if (name !== 'tokens') throw problem.type(`member ${member.name} holds strings; only a member named 'tokens' may`);
      tokens = array.strings;
    } else {
      defineEntry(tensors, name, array);
    }
  }
  return { tensors, tokens };
}
