import { fireEvent, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFirstGesture } from './useFirstGesture';

const resume = vi.fn(() => Promise.resolve());
const requestPermission = vi.fn(() => Promise.resolve('granted'));

class SuspendedAudio {
  state = 'suspended';
  resume = resume;
}

describe('useFirstGesture', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('unlocks the audio and asks for the notification permission on the first gesture only', () => {
    vi.stubGlobal('AudioContext', SuspendedAudio);
    vi.stubGlobal('Notification', { permission: 'default', requestPermission });
    renderHook(() => useFirstGesture());
    expect(requestPermission).not.toHaveBeenCalled();

    fireEvent.pointerDown(document.body);
    fireEvent.keyDown(document.body, { key: 'a' });
    expect(resume).toHaveBeenCalledTimes(1);
    expect(requestPermission).toHaveBeenCalledTimes(1);
  });
});
