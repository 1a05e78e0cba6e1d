/**
 * Hands `href` to the browser's download: a temporary anchor, clicked. Without `name` the browser
 * names the file (from the server's answer or the address).
 */
export const saveHref = (href: string, name?: string): void => {
  const anchor = document.createElement('a');
  anchor.href = href;
  if (name) anchor.download = name;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
};
