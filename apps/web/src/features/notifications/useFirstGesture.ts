import { useEffect } from 'react';
import { askPermission } from './desktop';
import { unlockAudio } from './sound';

const GESTURES = ['pointerdown', 'keydown'] as const;

/**
 * On the first click or key press of the page: unlocks the audio (so beeps work after a reload)
 * and asks once for the OS notification permission, which browsers grant only from a gesture.
 */
export function useFirstGesture(): void {
  useEffect(() => {
    const onGesture = () => {
      for (const type of GESTURES) window.removeEventListener(type, onGesture, true);
      unlockAudio();
      askPermission();
    };
    for (const type of GESTURES) window.addEventListener(type, onGesture, true);
    return () => {
      for (const type of GESTURES) window.removeEventListener(type, onGesture, true);
    };
  }, []);
}
