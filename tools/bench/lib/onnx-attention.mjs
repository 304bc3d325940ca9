// ONNX models of scaled dot-product attention for onnxruntime-web, built in code (onnx-model.mjs).
// Shapes in the letters of docs/semantics.md: q, k, v, dout (B, H, T, d) unless said otherwise (B = 1 by default).
// Every graph is given its cheapest correct form, so the peer is measured at its best: the scale
// multiplies q (T d work) rather than the (T, T) scores, and the backward's row sums use
// D_i = dO_i . O_i, which equals sum_j P_ij dP_ij but costs T d instead of T^2.
import { additiveCausalMask } from './contender.mjs';
import { floatTensor, int64Tensor, node, onnxModel } from './onnx-model.mjs';

const SWAP_LAST_TWO = { perm: [0, 1, 3, 2] };

/** Nodes for y = softmax(scale q k^T [+ mask]) v; they also leave p (the weights) for a backward. */
function forwardNodes(causal) {
  return [
    node('Mul', ['q', 'scale'], ['q_scaled']),
    node('Transpose', ['k'], ['k_t'], SWAP_LAST_TWO),
    node('MatMul', ['q_scaled', 'k_t'], [causal ? 'scores_unmasked' : 'scores']),
    ...(causal ? [node('Add', ['scores_unmasked', 'mask'], ['scores'])] : []),
    node('Softmax', ['scores'], ['p'], { axis: -1 }),
    node('MatMul', ['p', 'v'], ['y']),
  ];
}

function forwardInitializers({ T, d, causal }) {
  return [floatTensor('scale', [], [1 / Math.sqrt(d)]), ...(causal ? [floatTensor('mask', [T, T], additiveCausalMask(T))] : [])];
}

/** (a) The op graph: Mul, Transpose, MatMul, [Add mask], Softmax, MatMul. */
export function opGraphModel({ B = 1, H, T, d, causal }) {
  const shape = [B, H, T, d];
  return onnxModel({
    opsets: { '': 21 },
    inputs: [['q', shape], ['k', shape], ['v', shape]],
    outputs: [['y', shape]],
    initializers: forwardInitializers({ T, d, causal }),
    nodes: forwardNodes(causal),
  });
}

/**
 * (b) com.microsoft MultiHeadAttention: q (B, T, H d) and y (B, T, H d) in its "BSD" layout,
 * k and v (B, H, Tk, d) (the op accepts keys and values already split into heads); Tk = T unless given.
 */
export function multiHeadAttentionModel({ B = 1, H, T, Tk = T, d, causal }) {
  const headsShape = [B, H, Tk, d];
  return onnxModel({
    opsets: { '': 21, 'com.microsoft': 1 },
    inputs: [['q', [B, T, H * d]], ['k', headsShape], ['v', headsShape]],
    outputs: [['y', [B, T, H * d]]],
    nodes: [node('MultiHeadAttention', ['q', 'k', 'v'], ['y'], { num_heads: H, unidirectional: causal ? 1 : 0 }, 'com.microsoft')],
  });
}

/**
 * (b') MultiHeadAttention with an additive attention_bias (1, 1, T, Tk) graph input (0 visible, -Infinity
 * hidden): a mask the op has no attribute for, such as a sliding window, at the dense op's cost.
 */
export function multiHeadAttentionBiasModel({ B = 1, H, T, Tk = T, d }) {
  const headsShape = [B, H, Tk, d];
  return onnxModel({
    opsets: { '': 21, 'com.microsoft': 1 },
    inputs: [['q', [B, T, H * d]], ['k', headsShape], ['v', headsShape], ['attention_bias', [1, 1, T, Tk]]],
    outputs: [['y', [B, T, H * d]]],
    nodes: [node('MultiHeadAttention', ['q', 'k', 'v', '', '', 'attention_bias'], ['y'], { num_heads: H }, 'com.microsoft')],
  });
}

/** (c) The opset-23 Attention op (4-D q, k, v; default scale 1/sqrt(d)). */
export function attentionOpModel({ B = 1, H, T, d, causal }) {
  const shape = [B, H, T, d];
  return onnxModel({
    irVersion: 11, // opset 23 came with IR version 11
    opsets: { '': 23 },
    inputs: [['q', shape], ['k', shape], ['v', shape]],
    outputs: [['y', shape]],
    nodes: [node('Attention', ['q', 'k', 'v'], ['y'], { is_causal: causal ? 1 : 0 })],
  });
}

/**
 * Forward and backward as one explicit graph: outputs y, dq, dk, dv (each (1, H, T, d)).
 *   dV = P^T dO,  dP = dO V^T,  D = rowsum(dO * y),  dS = P * (dP - D),
 *   dQ = scale dS K,  dK = dS^T (scale q)
 * (scale q was already formed by the forward, so dK needs no extra multiply).
 */
export function gradientGraphModel({ B = 1, H, T, d, causal }) {
  const shape = [B, H, T, d];
  return onnxModel({
    opsets: { '': 21 },
    inputs: [['q', shape], ['k', shape], ['v', shape], ['dout', shape]],
    outputs: [['y', shape], ['dq', shape], ['dk', shape], ['dv', shape]],
    initializers: [...forwardInitializers({ T, d, causal }), int64Tensor('last_axis', [1], [-1])],
    nodes: [
      ...forwardNodes(causal),
      node('Transpose', ['p'], ['p_t'], SWAP_LAST_TWO),
      node('MatMul', ['p_t', 'dout'], ['dv']),
      node('Transpose', ['v'], ['v_t'], SWAP_LAST_TWO),
      node('MatMul', ['dout', 'v_t'], ['dp']),
      node('Mul', ['dout', 'y'], ['dout_y']),
      node('ReduceSum', ['dout_y', 'last_axis'], ['row_dot'], { keepdims: 1 }),
      node('Sub', ['dp', 'row_dot'], ['dp_centered']),
      node('Mul', ['p', 'dp_centered'], ['ds']),
      node('MatMul', ['ds', 'k'], ['dq_unscaled']),
      node('Mul', ['dq_unscaled', 'scale'], ['dq']),
      node('Transpose', ['ds'], ['ds_t'], SWAP_LAST_TWO),
      node('MatMul', ['ds_t', 'q_scaled'], ['dk']),
    ],
  });
}

/**
 * A whole multi-head attention layer without biases, as attention-lab's multiHeadAttention:
 * x (B, T, dModel) -> q, k, v = x Wq, x Wk, x Wv (B, T, dModel), com.microsoft MultiHeadAttention
 * over H heads of width dModel / H (its BSD layout takes them unsplit), then y Wo. Weights
 * { wq, wk, wv, wo } (dModel, dModel) Float32Arrays, initializers of the graph.
 */
export function multiHeadLayerModel({ B, T, dModel, H, weights }) {
  const shape = [B, T, dModel];
  return onnxModel({
    opsets: { '': 21, 'com.microsoft': 1 },
    inputs: [['x', shape]],
    outputs: [['out', shape]],
    initializers: ['wq', 'wk', 'wv', 'wo'].map((w) => floatTensor(w, [dModel, dModel], weights[w])),
    nodes: [
      node('MatMul', ['x', 'wq'], ['q']),
      node('MatMul', ['x', 'wk'], ['k']),
      node('MatMul', ['x', 'wv'], ['v']),
      node('MultiHeadAttention', ['q', 'k', 'v'], ['y'], { num_heads: H }, 'com.microsoft'),
      node('MatMul', ['y', 'wo'], ['out']),
    ],
  });
}
