import type { Plugin } from 'vite';

/**
 * The contract's `.describe("…")` texts document the API (the server's reference); the pages never
 * read them. The web build drops each one whose argument is a single string literal, so they cost
 * the guest's first load nothing. Anything else (a concatenation, a variable) is left as written.
 */
const DESCRIBE =
  /\.describe\(\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.)*`)\s*,?\s*\)/g;

export const stripContractDescriptions = (): Plugin => ({
  name: 'flashbulb-strip-contract-descriptions',
  apply: 'build',
  transform(code, id) {
    if (!/packages[\\/]shared[\\/]src[\\/].*\.ts$/.test(id) || !code.includes('.describe('))
      return null;
    return { code: code.replace(DESCRIBE, ''), map: null };
  },
});
