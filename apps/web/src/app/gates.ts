import { can, type PlanFlag, type SessionUser, STORAGE } from '@balcao/shared';

/** Who may open a route (spec §2, "Gate" column). */
export type Gate =
  | { kind: 'private' }
  | { kind: 'admin' }
  | { kind: 'super' }
  | { kind: 'plan'; flag: PlanFlag }
  | { kind: 'campaigns' };

export const gates = {
  private: { kind: 'private' },
  admin: { kind: 'admin' },
  super: { kind: 'super' },
  campaigns: { kind: 'campaigns' },
  plan: (flag: PlanFlag): Gate => ({ kind: 'plan', flag }),
} as const satisfies Record<string, Gate | ((flag: PlanFlag) => Gate)>;

/** Delay before a denied gate redirects, so the toast can be read. */
export const GATE_REDIRECT_DELAY_MS = 1_000;

/** A plan flag missing from the plan (or a company without a plan) counts as enabled. */
export function planAllows(user: SessionUser, flag: PlanFlag): boolean {
  return user.company.plan?.[flag] !== false;
}

/** The campaigns area: the plan allows campaigns, or the `cshow` browser-storage flag is present. */
export function campaignsAllowed(user: SessionUser): boolean {
  return planAllows(user, 'useCampaigns') || localStorage.getItem(STORAGE.cshow) !== null;
}

export function passesGate(gate: Gate, user: SessionUser): boolean {
  switch (gate.kind) {
    case 'private':
      return true;
    case 'admin':
      return can(user.profile, 'dashboard:view');
    case 'super':
      return user.super;
    case 'plan':
      return planAllows(user, gate.flag);
    case 'campaigns':
      return campaignsAllowed(user);
  }
}
