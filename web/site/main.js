// The explorer's entry: loads the styles and the wasm core through the public API.
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import { loadAttention } from '../src/index.js';

const attn = await loadAttention();
document.getElementById('views').textContent = `attention-lab on ${attn.backend} (${attn.arch})`;
