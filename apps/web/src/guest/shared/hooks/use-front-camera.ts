import { useEffect, useRef, type RefObject } from 'react';

/**
 * The front camera's stream in a video element while the component is on the page (the kiosk's
 * face search and its photo booth): asked once, stopped when the component leaves (a stream that
 * arrives after that is stopped at once). `onUnavailable`: no camera API, or the camera refused;
 * the latest one given is called.
 */
export const useFrontCamera = (
  videoRef: RefObject<HTMLVideoElement | null>,
  onUnavailable: () => void,
): void => {
  const unavailable = useRef(onUnavailable);
  useEffect(() => {
    unavailable.current = onUnavailable;
  });

  useEffect(() => {
    let stream: MediaStream | null = null;
    let cancelled = false;
    const video = videoRef.current;
    if (!navigator.mediaDevices?.getUserMedia) {
      unavailable.current();
      return;
    }
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 } }, audio: false })
      .then(
        (media) => {
          if (cancelled) {
            for (const track of media.getTracks()) track.stop();
            return;
          }
          stream = media;
          if (video) video.srcObject = media;
        },
        () => unavailable.current(),
      );
    return () => {
      cancelled = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
      if (video) video.srcObject = null;
    };
  }, [videoRef]);
};
