import { useEffect } from 'react';

/** While there are unsaved changes, leaving the page asks the browser's own confirmation. */
export const useUnsavedChangesGuard = (dirty: boolean): void => {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
};
