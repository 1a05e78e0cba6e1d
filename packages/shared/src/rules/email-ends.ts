/**
 * The event's e-mail endings (`opts.emailEnds`, owner console §3): every e-mail input a guest
 * types into offers the address completed with each of them. What is typed before `@` is kept;
 * what follows it narrows the endings to those it starts (without case). A complete address, or
 * text that cannot start one, gets no suggestion.
 */
export const emailSuggestions = (typed: string, endings: readonly string[], max = 10): string[] => {
  const value = typed.trim();
  const at = value.indexOf('@');
  const local = at === -1 ? value : value.slice(0, at);
  // A local part with spaces or a second @ is not the start of an address.
  if (!local || /[\s@]/.test(local) || value.indexOf('@', at + 1) !== -1) return [];
  const domainStart = at === -1 ? '' : value.slice(at + 1).toLowerCase();
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of endings) {
    const ending = raw.trim().replace(/^@+/, '').toLowerCase();
    if (!ending || /[\s@]/.test(ending) || seen.has(ending)) continue;
    seen.add(ending);
    if (!ending.startsWith(domainStart) || ending === domainStart) continue;
    out.push(`${local}@${ending}`);
    if (out.length >= max) break;
  }
  return out;
};

/**
 * The same for a field of several addresses (comma-separated): the last one is completed, the
 * addresses before it are kept as typed.
 */
export const emailListSuggestions = (
  typed: string,
  endings: readonly string[],
  max = 10,
): string[] => {
  const comma = typed.lastIndexOf(',');
  if (comma === -1) return emailSuggestions(typed, endings, max);
  const before = `${typed.slice(0, comma + 1).trimEnd()} `;
  return emailSuggestions(typed.slice(comma + 1), endings, max).map((s) => before + s);
};
