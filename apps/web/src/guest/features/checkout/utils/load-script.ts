const loads = new Map<string, Promise<void>>();

/**
 * Adds a provider's script to the page once (later calls share the load); a failed load is
 * forgotten so a later call tries again. Used only by the page that needs it (PayPal's checkout
 * script on the album page), never by the app's first load.
 */
export const loadScript = (src: string): Promise<void> => {
  const known = loads.get(src);
  if (known) return known;
  const load = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loads.delete(src);
      script.remove();
      reject(new Error('script_load_failed'));
    };
    document.head.appendChild(script);
  });
  loads.set(src, load);
  return load;
};
