// The `types` suite: the hand-written declarations checked two ways.
//   1. tsc --strict over tests/types (one consumer per package entry, using its whole surface):
//      a declaration that is wrong, or lacks something a consumer uses, fails to compile.
//   2. The declarations against the JS at runtime: each entry's declared values are exactly the
//      module's exports (and each consumer imports every one of them), the API objects have exactly
//      the declared members, and every options type names exactly the options the function
//      accepts (read from the TypeError an unknown option gets: "... (known: a, b, c)"), and every
//      custom element's declared attributes are exactly its observedAttributes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ENTRIES = {
  '.': { specifier: 'attention-lab', consumer: 'main.ts' },
  './worker': { specifier: 'attention-lab/worker', consumer: 'worker.ts' },
  './figures': { specifier: 'attention-lab/figures', consumer: 'figures.ts' },
  './elements': { specifier: 'attention-lab/elements', consumer: 'elements.ts' },
  './io': { specifier: 'attention-lab/io', consumer: 'io.ts' },
  './train': { specifier: 'attention-lab/train', consumer: 'train.ts' },
};

/** The program tsc -p tests/types builds. */
function program() {
  const configPath = path.join(HERE, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
}

const formatDiagnostics = (diagnostics) =>
  ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => HERE,
    getNewLine: () => '\n',
  });

let prog;
let checker;
beforeAll(() => {
  prog = program();
  checker = prog.getTypeChecker();
});

/** The module symbol `specifier` resolves to from the entry's consumer (through package.json exports). */
function entryModule(entry) {
  const consumer = prog.getSourceFile(path.join(HERE, ENTRIES[entry].consumer));
  const declaration = consumer.statements.find((s) => ts.isImportDeclaration(s) && s.moduleSpecifier.text === ENTRIES[entry].specifier);
  return { consumer, declaration, module: checker.getSymbolAtLocation(declaration.moduleSpecifier) };
}

/** -> { values, types }: the names an entry's declarations export, split by kind. */
function declaredExports(entry) {
  const { module } = entryModule(entry);
  const values = [];
  const types = [];
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    // A type-only re-export (`export type { X }`) is no value whatever X is.
    const typeOnly = symbol.declarations?.some((d) => ts.isTypeOnlyExportDeclaration(d));
    (target.flags & ts.SymbolFlags.Value && !typeOnly ? values : types).push(symbol.name);
  }
  return { values: values.sort(), types: types.sort() };
}

/** The declared type of an interface or type alias the entry's declarations export. */
function declaredMembers(entry, name) {
  const { module } = entryModule(entry);
  const symbol = checker.getExportsOfModule(module).find((s) => s.name === name);
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return checker.getDeclaredTypeOfSymbol(target);
}

const names = (type) =>
  checker
    .getPropertiesOfType(type)
    .map((p) => p.name)
    .sort();

/** The members of a union of string literals ('a' | 'b' -> ['a', 'b']). */
const literals = (type) => (type.isUnion() ? type.types : [type]).map((t) => t.value).sort();

/** The declared options type of the entry's function `fn`: its parameter `param`. */
function functionOptionNames(entry, fn, param = 'options') {
  const { module } = entryModule(entry);
  const symbol = checker.getExportsOfModule(module).find((s) => s.name === fn);
  const signature = checker.getSignaturesOfType(checker.getTypeOfSymbol(symbol), ts.SignatureKind.Call)[0];
  const parameter = signature.parameters.find((p) => p.name === param);
  return names(checker.getNonNullableType(checker.getTypeOfSymbol(parameter)));
}

/** The declared options type of interface `owner`'s method `method`: its parameter `param`. */
function optionNames(owner, method, param = 'options') {
  const methodSymbol = declaredMembers('.', owner).getProperty(method);
  const signature = checker.getSignaturesOfType(checker.getTypeOfSymbol(methodSymbol), ts.SignatureKind.Call)[0];
  const parameter = signature.parameters.find((p) => p.name === param);
  return names(checker.getNonNullableType(checker.getTypeOfSymbol(parameter)));
}

/** The option names a call accepts, from the TypeError an unknown option gets. */
async function acceptedOptions(call) {
  let error;
  try {
    await call({ unknownProbeOption: 1 });
  } catch (e) {
    error = e;
  }
  const known = /unknown option 'unknownProbeOption' \(known: ([^)]*)\)/.exec(error?.message ?? '');
  if (!known) throw new Error(`no unknown-option TypeError: ${error?.message ?? 'the call succeeded'}`);
  return known[1].split(', ').sort();
}

describe('tsc --strict over tests/types', () => {
  it("finds the package by its own name and every entry's .d.ts through package.json exports", () => {
    for (const entry of Object.keys(ENTRIES)) {
      const { module } = entryModule(entry);
      expect(module, entry).toBeDefined();
      expect(module.valueDeclaration.getSourceFile().fileName, entry).toMatch(/\/web\/(src|figures|elements|io|model\/train)\/\w+\.d\.ts$/);
    }
  });

  for (const [entry, { consumer }] of Object.entries(ENTRIES)) {
    it(`compiles the consumer of '${entry}' (${consumer}) and the declarations it reaches with no error`, () => {
      const file = prog.getSourceFile(path.join(HERE, consumer));
      const diagnostics = [...prog.getSyntacticDiagnostics(file), ...prog.getSemanticDiagnostics(file)];
      expect(formatDiagnostics(diagnostics)).toBe('');
    });
  }

  it('reports no error anywhere (the declarations themselves, the options)', () => {
    expect(formatDiagnostics(ts.getPreEmitDiagnostics(prog))).toBe('');
  });
});

describe('the declarations match the JS at runtime', () => {
  for (const [entry, { specifier }] of Object.entries(ENTRIES)) {
    it(`'${entry}' declares exactly the values its module exports, and its consumer imports every name it declares`, async () => {
      const { values, types } = declaredExports(entry);
      const module = await import(specifier);
      expect(values, entry).toEqual(Object.keys(module).sort());
      const { declaration } = entryModule(entry);
      const imported = declaration.importClause.namedBindings.elements.map((e) => (e.propertyName ?? e.name).text).sort();
      expect(imported, `${entry}: names its consumer does not import`).toEqual([...values, ...types].sort());
    });
  }

  describe('the API objects and options', () => {
    let attn;
    let pool;
    beforeAll(async () => {
      const { loadAttention } = await import('attention-lab');
      attn = await loadAttention();
      pool = await loadAttention({ threads: 1 });
    });
    afterAll(() => pool?.dispose());

    const x = [
      [1, 0],
      [0, 1],
    ];
    const tinyModel = { vocab: 2, dModel: 2, layers: 1, heads: 1, maxLength: 2, positions: 'none', mlp: 0 };
    const weights = { wq: [[1]], wk: [[1]], wv: [1] };
    it('Attention, ParallelAttention, both layers and a KV cache have exactly the declared members', async () => {
      expect(Object.keys(attn).sort()).toEqual(names(declaredMembers('.', 'Attention')));
      expect(Object.keys(pool).sort()).toEqual(names(declaredMembers('.', 'ParallelAttention')));
      expect(Object.keys(attn.selfAttention({ dIn: 2 })).sort()).toEqual(names(declaredMembers('.', 'AttentionLayer')));
      expect(Object.keys(attn.selfAttention({ dIn: 2 }).createCache()).sort()).toEqual(names(declaredMembers('.', 'KVCache')));
      const remote = await pool.selfAttention({ dIn: 2 });
      expect(Object.keys(remote).sort()).toEqual(names(declaredMembers('.', 'ParallelAttentionLayer')));
      await remote.dispose();
      const model = attn.transformer(tinyModel);
      expect(Object.keys(model).sort()).toEqual(names(declaredMembers('.', 'Transformer')));
      model.dispose();
      const remoteModel = await pool.transformer(tinyModel);
      expect(Object.keys(remoteModel).sort()).toEqual(names(declaredMembers('.', 'ParallelTransformer')));
      await remoteModel.dispose();
    });

    const calls = {
      maskedSoftmax: (o) => attn.maskedSoftmax(x, o),
      maskedSoftmaxBackward: (o) => attn.maskedSoftmaxBackward(x, x, o),
      scaledDotProductAttention: (o) => attn.scaledDotProductAttention(x, x, x, o),
      scaledDotProductAttentionBackward: (o) => attn.scaledDotProductAttentionBackward(x, x, x, x, o),
      additiveAttention: (o) => attn.additiveAttention(x, x, x, { ...weights, ...o }),
      additiveAttentionBackward: (o) => attn.additiveAttentionBackward(x, x, x, x, { ...weights, ...o }),
      attention: (o) => attn.attention(x, x, x, o),
      attentionBackward: (o) => attn.attentionBackward(x, x, x, x, o),
      selfAttention: (o) => attn.selfAttention({ dIn: 2, ...o }),
      multiHeadAttention: (o) => attn.multiHeadAttention({ dModel: 2, heads: 1, ...o }),
      rope: (o) => attn.rope(x, o),
      ropeBackward: (o) => attn.ropeBackward(x, o),
    };
    for (const [method, call] of Object.entries(calls)) {
      it(`Attention.${method} accepts exactly the options its declaration names`, async () => {
        expect(await acceptedOptions(call)).toEqual(optionNames('Attention', method));
      });
    }

    it('layer.forward, layer.createCache, loadAttention and loadAttention({ threads }) accept exactly the declared options', async () => {
      const { loadAttention } = await import('attention-lab');
      const layer = attn.selfAttention({ dIn: 2 });
      expect(await acceptedOptions((o) => layer.forward(x, o))).toEqual(optionNames('AttentionLayer', 'forward'));
      expect(await acceptedOptions((o) => layer.createCache(o))).toEqual(optionNames('AttentionLayer', 'createCache'));
      const model = attn.transformer(tinyModel);
      expect(await acceptedOptions((o) => attn.transformer({ ...tinyModel, ...o }))).toEqual(names(declaredMembers('.', 'TransformerConfig')));
      expect(await acceptedOptions((o) => model.forward(x, o))).toEqual(optionNames('Transformer', 'forward'));
      expect(await acceptedOptions((o) => model.gradients(x, o))).toEqual(names(declaredMembers('.', 'TransformerLossOptions')));
      expect(await acceptedOptions((o) => model.trainStep(x, { optimizer: { learningRate: 0 }, ...o }))).toEqual(
        names(declaredMembers('.', 'TransformerStepOptions')),
      );
      expect(await acceptedOptions((o) => model.trainStep(x, { optimizer: { learningRate: 0, ...o } }))).toEqual(names(declaredMembers('.', 'AdamWOptions')));
      model.dispose();
      expect(await acceptedOptions((o) => loadAttention(o))).toEqual(names(declaredMembers('.', 'LoadOptions')));
      expect(await acceptedOptions((o) => loadAttention({ threads: 1, ...o }))).toEqual(names(declaredMembers('.', 'ParallelOptions')));
    });
  });

  it('readTensors accepts exactly the options ReadOptions names', async () => {
    const { readTensors } = await import('attention-lab/io');
    expect(await acceptedOptions((o) => readTensors(new Uint8Array(0), o))).toEqual(functionOptionNames('./io', 'readTensors'));
    expect(functionOptionNames('./io', 'readTensors')).toEqual(names(declaredMembers('./io', 'ReadOptions')));
  });

  it('each custom element observes exactly the attributes its declaration names', async () => {
    const elements = await import('attention-lab/elements');
    for (const name of ['AttnFigure', 'AttnHeatmap', 'AttnHeads']) {
      expect([...elements[name].observedAttributes].sort(), name).toEqual(literals(declaredMembers('./elements', `${name}Attribute`)));
    }
  });
});
