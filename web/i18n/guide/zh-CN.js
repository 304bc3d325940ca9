// 嵌入指南的中文 (guide.*)：页面、各节、正文（可信的 HTML，代码用 <code>）、属性表、代码里的注释和
// 示例博文；展开到 ../zh-CN.js。代码本身在 web/site/features/guide/content.js，两种语言相同。
export default {
  'guide.page-title': 'attention-lab · 嵌入指南',
  'guide.page-description': '把实时、精确的注意力图表放进博文或应用：attention-lab 的 <attn-figure>、<attn-heatmap>、iframe 嵌入和图表函数。',
  'guide.nav-label': '指南',
  'guide.title': '嵌入 attention-lab 图表',
  'guide.lede':
    '在你自己的页面里放上实时、精确的注意力图表：两个自定义元素，一个供会删除脚本的平台使用的 iframe，以及供你的框架调用的图表函数。下面每个示例都是实时运行的。',
  'guide.code-label': '{section}：代码 {n}',
  'guide.table.attribute': '属性',
  'guide.table.values': '取值',
  'guide.table.meaning': '作用',

  'guide.blank-page.title': '空白 HTML 页面中的实时图表',
  'guide.blank-page.p1':
    '把下面的内容存为 <code>figure.html</code> 并打开：一个 <code>script</code> 标签，一个元素。图表的每个数字都在读者的浏览器里计算（编译成 WebAssembly 的 attention-lab 核心，在图表滚动到附近时加载，每个页面只加载一次）。',
  'guide.blank-page.p2':
    '不依赖本站：安装这个包，让 <code>script</code> 指向它（加载包内模块的页面可以用任何静态服务器提供，例如 <code>python3 -m http.server</code>）。若要一个无需服务器、无需网络、在哪里都能打开的文件，在任意图表上用<b>导出 → HTML</b>，或用下文的命令行：这一个文件就带着它的代码、样式、数据和 WebAssembly 核心。',
  'guide.comment.tarball': '尚未发布到 npm：用你克隆的仓库打一个 tarball',

  'guide.vite.title': '在 Vite 应用（或任何打包工具）中',
  'guide.vite.p1':
    '无需配置：包里的 <code>.wasm</code> 文件通过 <code>new URL(…, import.meta.url)</code> 找到，Vite 在 <code>vite build</code> 时把它们作为资源复制，在 <code>vite</code> 开发服务器中直接提供。',
  'guide.vite.p2': '在你自己的框架里，图表函数返回普通的 DOM 节点（样式表只需导入一次）：',
  'guide.comment.defines': '定义 <attn-figure> 和 <attn-heatmap>',
  'guide.comment.template': 'index.html，或任何框架的模板',

  'guide.figure.p1':
    '注意力计算浏览器（本站主页）里的整条计算流程，或其中几个阶段，用预设示例或你自己的数字。每个矩阵都带着它的精确数值（<code>data-value</code>），每个单元格都能用键盘到达（先按 Tab，再用方向键），SVG / PNG 可下载图表。',
  'guide.figure.h-preset': '<code>preset</code> 和 <code>stages</code>',
  'guide.figure.h-data': '<code>data</code>：你自己的数字',
  'guide.figure.h-scoring': '<code>scoring</code> 和 <code>compare</code>',
  'guide.figure.h-causal': '<code>causal</code>',
  'guide.figure.h-valid-lens': '<code>valid-lens</code> 和 <code>mask-fill</code>',
  'guide.figure.h-heads': '<code>heads</code>、<code>head</code> 和 <code>view</code>',
  'guide.figure.h-backward': '<code>backward</code> 和 <code>captions</code>',
  'guide.figure.h-editable': '<code>editable</code>',
  'guide.figure.p-editable':
    '在 X 的单元格上直接输入数字（或按 Enter）即可编辑：Enter 确认并下移，Tab 右移，加 Shift 则反向，Esc 取消。把整个矩阵粘贴到一个单元格上（LaTeX、NumPy 的打印输出、CSV 或 TSV、Markdown 表格、按行的纯文本；也接受 1/2 和全角数字），尺寸随之改变。左右拖动单元格可连续调整数值；在显示注意力分数的图表里，点击一个分数即可掩蔽它。',
  'guide.figure.h-theme': '<code>theme</code>',

  'guide.values.present': '（写上属性即可）',
  'guide.values.ids': '阶段 id',
  'guide.values.scorings': '评分函数名',
  'guide.values.divisor': '头数的约数',
  'guide.values.json-list': 'JSON 列表',
  'guide.values.json-flags': 'JSON 标记',
  'guide.values.text': '文本',

  'guide.attr.figure.preset': '注意力计算浏览器里的一个算好的示例（默认 <code>seed-004</code>）。',
  'guide.attr.figure.data':
    '你自己的数字：<code>{"x", "wq", "wk", "wv", "tokens"}</code>（X 的自注意力）或 <code>{"q", "k", "v", "tokens", "keyTokens"}</code>；也可以把 JSON 放进子元素 <code>&lt;script type="application/json"&gt;</code>。与 <code>preset</code> 同用时，它修改该预设示例。',
  'guide.attr.figure.stages':
    '显示哪些矩阵，例如 <code>"scores weights output"</code>：<code>x, wq, wk, wv, q, k, v, rope, params, scores, scaled, alibi, masked, weights, output, concat-output, wo, projected-output</code>；<code>target, d-projected, d-output, d-weights, d-scores, dq, dk, dv, dwq, dwk, dwv, dwo</code>。默认：前向计算。',
  'guide.attr.figure.scoring': '评分函数 a(q, k)。',
  'guide.attr.figure.compare': '再并排计算几种评分函数。',
  'guide.attr.figure.causal': '因果掩码。',
  'guide.attr.figure.valid-lens': 'd2l 的有效长度，每个批次一个或每个查询行一个。',
  'guide.attr.figure.mask-fill': '所有键都被掩蔽的一行：权重全为零，或用 d2l 的 −10⁶ 填充（得到均匀权重），即 API 的 <code>maskFill</code>。',
  'guide.attr.figure.heads': '头的数量（新增的头使用按种子生成的权重）。',
  'guide.attr.figure.head': '矩阵显示的是哪个头。',
  'guide.attr.figure.kv-heads': '分组注意力头：查询头共享多少个 K、V 头（1：多查询注意力）。',
  'guide.attr.figure.window': '滑动窗口 [左，右]：查询 i 看到键 i − 左 … i + 右（−1：这一侧不设限）。',
  'guide.attr.figure.alibi':
    'ALiBi：在缩放后的注意力分数上加 −m_h |i + Tk − Tq − j|，斜率 m_h 取论文中的值，或给每个头一个斜率（有限且 &gt; 0，个数与头数相同）。',
  'guide.attr.figure.rope': '对 Q 和 K 施加旋转位置编码：<code>halves</code> 同 Llama，相邻两两成对同 GPT-J（X 的宽度须为偶数）。',
  'guide.attr.figure.view': '带数字的矩阵、d2l 风格的热力图，或 BertViz 风格的词元连线。',
  'guide.attr.figure.backward': '加上反向传播：<code>target</code>、dO、dP、dS、dQ、dK、dV、dW。',
  'guide.attr.figure.editable': '读者可以输入或拖动输入值，点击一个分数将其掩蔽；一切随之重算。',
  'guide.attr.figure.captions': '每个矩阵下方一句说明。',
  'guide.attr.figure.theme': '默认：跟随页面的 <code>color-scheme</code>。',
  'guide.attr.figure.lang': '图表自身文字的语言（三个元素都支持）。默认：最近的 <code>lang</code>，否则为英文。',

  'guide.heatmap.p1': '为你已有的注意力权重（例如来自 PyTorch）画热力图，就像 d2l 的 <code>show_heatmaps</code>。不加载 WebAssembly。',
  'guide.attr.heatmap.weights':
    '注意力权重；或放在子元素 <code>&lt;script type="application/json"&gt;</code> 中，内容为数组或 <code>{weights, rowLabels, colLabels, masked, title}</code>。',
  'guide.attr.heatmap.row-labels': '查询和键的标签。',
  'guide.attr.heatmap.title': '图上方的标题。',
  'guide.attr.heatmap.xlabel': '坐标轴标题（默认为“键”“查询”）。',
  'guide.attr.heatmap.color-scale': '在 [0, 1] 上的顺序色阶，或以 0 为中心的发散色阶（用于注意力分数、梯度）。',
  'guide.attr.heatmap.numbers': '在单元格中写出数值。',
  'guide.attr.heatmap.masked': '被掩蔽的单元格处为 1（画成斜线阴影）。',
  'guide.attr.heatmap.theme': '同 <code>&lt;attn-figure&gt;</code>。',
  'guide.example.head-1': '头 1',
  'guide.example.scores': '注意力分数',
  'guide.example.layer-head': '第 1 层，头 0',

  'guide.files.title': '你自己的模型：从文件读取注意力',
  'guide.files.p1':
    'Hugging Face 的模型在 <code>output_attentions=True</code> 时返回注意力：每层一个 <code>(1, H, T, T)</code> 张量。五行 Python 就能把它们连同词元存成一个 <code>.safetensors</code> 文件（用 <code>numpy.save</code> 存成 <code>.npy</code> 也可以，BertViz 的 JSON 也行）：',
  'guide.files.p2':
    '然后一个元素就能显示每一层、每一个头，以及各头的均值和最大值、各层的均值；点击一个头可放大，指向一个像素可读出它的权重，选择词元可跟踪它们的行和列。这里的文件是在本站自己的机器上训练的一个两层模型，任务是接着写出重复的字母：第 1 层（即第二层；层从 0 开始计数）的头关注当前字母上一次出现之后的那个字母（归纳头）。',
  'guide.files.p3':
    '把一个头画成热力图：<code>index</code> 选取前几个轴（第 1 层、头 0，从 0 开始计数），文件中有多个张量时用 <code>tensor</code> 指明是哪一个；标签取自文件中的词元，除非 <code>row-labels</code> 和 <code>col-labels</code> 另行给出。<code>&lt;attn-figure src="layer.safetensors" transpose="wq wk wv"&gt;</code> 用文件中的 <code>x</code>、<code>wq</code>、<code>wk</code>、<code>wv</code>（PyTorch 的 <code>nn.Linear</code> 权重形状是 <code>(out, in)</code>：把它们列进 <code>transpose</code>）或 <code>q</code>、<code>k</code>、<code>v</code> 计算整条流程。读不了的文件会在图表中说明，并指出是哪个属性、哪个文件。',
  'guide.comment.file': '来自 <input type="file"> 的 File',

  'guide.induction.title': '观看归纳头的形成',
  'guide.induction.p1':
    '前一词元头（<span lang="en">previous-token head</span>）让每个词元关注紧挨在它前面的词元；后面一层的归纳头（<span lang="en">induction head</span>）借助它找到当前词元上一次出现的位置，并关注那次出现之后的词元，于是模型能把见过一次的序列接着写下去（Olsson 等，2022，<a href="https://transformer-circuits.pub/2022/in-context-learning-and-induction-heads/index.html">《In-context Learning and Induction Heads》</a>）。这至少需要两层注意力，因为归纳头的键是由前一词元头写下的内容构成的（Elhage 等，2021，<a href="https://transformer-circuits.pub/2021/framework/index.html">《A Mathematical Framework for Transformer Circuits》</a>）。',
  'guide.induction.p2':
    '这个元素一滚动到视野中，就在你的浏览器里用重复的随机字母训练一个两层模型：当第二层的某个头变成归纳头时，损失随之下降；每个头的前一词元得分（<code>prev</code>）和归纳得分（<code>ind</code>）显示是哪一个头。',

  'guide.notebooks.title': '笔记本：Jupyter 单元格中的图表',
  'guide.notebooks.p1':
    '命令行会写出一个自包含的 <code>.html</code> 文件（无需服务器，不用 CDN，不下载任何东西），所以即使在断网的环境里，笔记本也能显示它。在 Python 单元格中写两行：',
  'guide.notebooks.p2':
    "或者直接嵌在笔记本里（它就随 <code>.ipynb</code> 一起保存）：<code>from IPython.display import HTML; HTML(open('fig.html').read())</code>。",
  'guide.notebooks.p3':
    '为笔记本里得到的 NumPy 数组画图：先用 <code>np.save</code> 保存，再画出来。(T, T) 的注意力权重数组画成热力图；(H, T, T) 或 (L, H, T, T) 用 <code>--view heads</code> 画成模型视图；X、Wq、Wk、Wv 一起保存（<code>np.savez</code>）就是完整的计算，用 <code>--view pipeline</code> 在文件中实时重算。',
  'guide.comment.clone': '~/attention-lab：你克隆的仓库',
  'guide.comment.build-wasm': '只需一次：在克隆的仓库中运行 npm run build:wasm',

  'guide.theming.title': '颜色和字体',
  'guide.theming.p1':
    '图表画在影子 DOM（<span lang="en">shadow root</span>）里：你页面的样式进不去，它们的样式也不会漏出来。图表读取下面这些 CSS 自定义属性，你可以把它们设在元素上或任何祖先元素上（包括 <code>:root</code>）：{properties}。未设置时，它们跟随页面的 <code>color-scheme</code>（浅色或深色）。',

  'guide.iframe.title': 'iframe：用于会删除脚本的平台',
  'guide.iframe.p1':
    '有些博客平台会删除 <code>&lt;script&gt;</code>。注意力计算浏览器的<strong>嵌入</strong>按钮给出一个显示当前状态的 <code>embed.html</code> iframe；其后的一小段脚本（可选）让 iframe 的高度适应图表。',
  'guide.iframe.frame-title': '注意力图表（attention-lab）',

  'guide.post.title': '一篇示例博文',
  'guide.post.p1': '一篇带三个实时图表的博文是这个样子。它的源码就是普通正文中的三个元素。',
  'guide.post.heading': '注意力：掩蔽与不掩蔽',
  'guide.post.masked':
    '在 d2l 讲注意力评分函数的一章里，两个批次各有十个相同的键，有效长度分别为 2 和 6。超出有效长度的键被掩蔽：它们的注意力分数在 softmax 之前被设为 −10⁶，因此权重为零，每个输出就是前几个值的平均。',
  'guide.post.additive':
    '加性注意力（一个带 tanh 的小网络）和缩放点积注意力对同样的查询和键打出不同的分数。这里把两者并排放在手算示例的三个词元上（3 个词元，宽度 2）：点积对词元 3 的偏向要明确得多。',
  'guide.post.backward': '训练需要反向传播。给输出一个目标值，这个示例的每个梯度都由链式法则得出，attention-lab 用核心自己的反向计算逐一核对：',
};
