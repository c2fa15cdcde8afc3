import type { ClientRect, KeyboardCoordinateGetter } from '@dnd-kit/core';
import { describe, expect, it } from 'vitest';
import { laneKeyboardCoordinates } from './laneKeyboard';

const rect = (left: number, top: number, width: number, height: number): ClientRect => ({
  left,
  top,
  width,
  height,
  right: left + width,
  bottom: top + height,
});

/** Three lanes 300 px wide, 12 px apart, 600 px high; the held card 280 × 100. */
const lanes = new Map([
  ['lane:open', rect(100, 50, 300, 600)],
  ['lane:10', rect(412, 50, 300, 600)],
  ['lane:20', rect(724, 50, 300, 600)],
]);

function press(code: string, card: ClientRect | null) {
  const event = new KeyboardEvent('keydown', { code, cancelable: true });
  const context = {
    collisionRect: card,
    droppableRects: lanes,
    droppableContainers: { getEnabled: () => [...lanes.keys()].reverse().map((id) => ({ id })) },
  } as unknown as Parameters<KeyboardCoordinateGetter>[1]['context'];
  const to = laneKeyboardCoordinates(event, { active: 'ticket:1', currentCoordinates: { x: 0, y: 0 }, context });
  return { to, prevented: event.defaultPrevented };
}

describe('laneKeyboardCoordinates', () => {
  it('→ and ← move the held card one lane, centred, at the same height', () => {
    expect(press('ArrowRight', rect(110, 200, 280, 100)).to).toEqual({ x: 422, y: 200 });
    expect(press('ArrowRight', rect(422, 200, 280, 100)).to).toEqual({ x: 734, y: 200 });
    expect(press('ArrowLeft', rect(734, 200, 280, 100)).to).toEqual({ x: 422, y: 200 });
    expect(press('ArrowLeft', rect(422, 200, 280, 100)).to).toEqual({ x: 110, y: 200 });
  });

  it('stays put past the first and the last lane, and keeps the card within the lane’s height', () => {
    expect(press('ArrowLeft', rect(110, 200, 280, 100)).to).toBeUndefined();
    expect(press('ArrowRight', rect(734, 200, 280, 100)).to).toBeUndefined();
    expect(press('ArrowRight', rect(110, 600, 280, 100)).to).toEqual({ x: 422, y: 550 });
  });

  it('from the gap between two lanes, goes to the nearest one in that direction', () => {
    // The card's centre (410) lies between "Em aberto" (ends at 400) and lane 10 (starts at 412).
    expect(press('ArrowRight', rect(270, 200, 280, 100)).to).toEqual({ x: 422, y: 200 });
    expect(press('ArrowLeft', rect(270, 200, 280, 100)).to).toEqual({ x: 110, y: 200 });
  });

  it('takes ↑ and ↓ without moving (no page scroll), and leaves other keys alone', () => {
    expect(press('ArrowUp', rect(110, 200, 280, 100))).toEqual({ to: undefined, prevented: true });
    expect(press('ArrowDown', rect(110, 200, 280, 100))).toEqual({ to: undefined, prevented: true });
    expect(press('KeyA', rect(110, 200, 280, 100))).toEqual({ to: undefined, prevented: false });
  });
});
