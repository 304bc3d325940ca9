// 词元文本框、改变大小后的标题和指南代码块的“复制”按钮 (spread into ../zh-CN.js).
export default {
  'site.resized': '由“{preset}”改变了大小：{changes}。',
  'site.resized-size': '{label} {from} → {to}',
  'site.token-text.tokens': '词元文本',
  'site.token-text.queries': '查询词元',
  'site.token-text.keyTokens': '键词元',
  'site.token-text-hint': '输入一句话后按 Enter：按空格分词，不带空格的中文或日文会自动切分成词；词元个数决定大小。',
  'site.token-count': '{count} 个词元：这个例子只能有 {min} 到 {max} 个。',
  'site.tokens-json': '不是有效的 JSON 列表（{reason}）。',
  'site.tokens-strings': 'JSON 列表只能包含字符串，例如 ["New York", "is", "big"]。',
  'guide.code-copy': '复制',
  'guide.code-copy-label': '复制代码：{what}',
  'guide.code-copied': '已复制',
  'guide.code-copy-failed': '此处不允许复制：代码已选中，请用键盘复制',
};
