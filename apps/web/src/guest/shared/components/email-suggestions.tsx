import { emailListSuggestions } from '@flashbulb/shared';

/**
 * The event's e-mail endings (`opts.emailEnds`) offered for an e-mail input: a `<datalist>` the
 * input names with `list={id}`. Each option is what the guest typed completed with one ending (in
 * a list of addresses, the last one); the browser shows those matching what is typed.
 */
export function EmailSuggestions({
  id,
  value,
  endings,
}: {
  id: string;
  value: string;
  endings: readonly string[] | undefined;
}) {
  return (
    <datalist id={id}>
      {emailListSuggestions(value, endings ?? []).map((option) => (
        <option key={option} value={option} />
      ))}
    </datalist>
  );
}
