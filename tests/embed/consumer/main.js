// The whole integration of a Vite app: import the elements entry (it defines <attn-figure>).
import 'attention-lab/elements';
