import type { ClientRect, KeyboardCoordinateGetter } from '@dnd-kit/core';

/** Arrow keys while a card is held: ← and → pick a lane; ↑ and ↓ are taken (no page scroll) but do nothing. */
const STEPS: Record<string, -1 | 0 | 1> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: 0, ArrowDown: 0 };

/**
 * Where the held card goes on an arrow key (dnd-kit's KeyboardSensor): centred in the previous or
 * next lane, at the same height (within the lane), so that one press is one lane. dnd-kit's default
 * moves 25 px a press, a dozen presses per lane. The lanes are the board's droppables, in screen order.
 */
export const laneKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context }) => {
  const step = STEPS[event.code];
  if (step === undefined) return undefined;
  event.preventDefault();
  const { collisionRect, droppableRects, droppableContainers } = context;
  if (step === 0 || !collisionRect) return undefined;
  const lanes = droppableContainers
    .getEnabled()
    .map((container) => droppableRects.get(container.id))
    .filter((rect): rect is ClientRect => rect !== undefined)
    .sort((a, b) => a.left - b.left);
  const centre = collisionRect.left + collisionRect.width / 2;
  const current = lanes.findIndex((rect) => rect.left <= centre && centre <= rect.right);
  const target =
    current >= 0
      ? lanes[current + step]
      : step > 0
        ? lanes.find((rect) => rect.left > centre)
        : [...lanes].reverse().find((rect) => rect.right < centre);
  if (!target) return undefined;
  return {
    x: target.left + (target.width - collisionRect.width) / 2,
    y: Math.max(target.top, Math.min(collisionRect.top, target.bottom - collisionRect.height)),
  };
};
