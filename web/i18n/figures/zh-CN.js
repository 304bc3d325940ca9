// figure.*: 图表元素的文字(工具栏、导出菜单、加载中),简体中文;与 en.js 键相同。
import training from '../training/zh-CN.js';

export default {
  ...training,
  'figure.loading': '正在加载图表…',
  'figure.export': '导出',
  'figure.export-name': '导出此图表',
  'figure.export-title': '下载为 SVG、PNG 或独立的 HTML 文件',
  'figure.html-note': '单个文件,可离线打开',
  'figure.toolbar': '图表导出',
};
