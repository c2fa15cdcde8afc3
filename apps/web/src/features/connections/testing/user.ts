import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';

/**
 * userEvent without the per-action delay and the pointer-events check: that check computes the
 * styles of every ancestor, which is slow with MUI in jsdom.
 */
export function fastUser() {
  return userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
}

/** Types into a field in one input event. */
export async function fill(user: ReturnType<typeof fastUser>, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}
