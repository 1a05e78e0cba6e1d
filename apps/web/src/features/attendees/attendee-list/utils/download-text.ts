export { downloadText } from '../../../../lib/download-text.ts';
