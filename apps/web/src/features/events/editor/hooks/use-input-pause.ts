import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Owner-console §4: after Update the editor ignores clicks and typing for a while (robots and
 * kiosks pick the new settings up meanwhile). Returns whether input is paused and a starter.
 */
export const useInputPause = (durationMs: number): [boolean, () => void] => {
  const [paused, setPaused] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    setPaused(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setPaused(false);
    }, durationMs);
  }, [durationMs]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return [paused, start];
};
