import { describe, expect, it } from 'vitest';
import { campaignEditMode, formatCampaignDate, scheduleInputToBody, toScheduleInput } from './format';

const now = Date.parse('2026-01-05T12:00:00.000Z');
const inMinutes = (m: number) => new Date(now + m * 60_000).toISOString();

describe('campaign dates', () => {
  it('shows and edits times in the company time zone', () => {
    expect(formatCampaignDate('2026-01-05T12:03:00.000Z', 'America/Sao_Paulo')).toBe('05/01/2026 09:03');
    expect(formatCampaignDate('2026-01-05T00:30:00.000Z', 'America/Sao_Paulo')).toBe('04/01/2026 21:30');
    expect(formatCampaignDate('2026-01-05T12:03:00.000Z', 'Europe/Lisbon')).toBe('05/01/2026 12:03');
    expect(toScheduleInput('2026-01-05T12:03:00.000Z', 'America/Sao_Paulo')).toBe('2026-01-05T09:03');
    expect(toScheduleInput(null, 'America/Sao_Paulo')).toBe('');
  });

  it('sends the typed wall clock as YYYY-MM-DD HH:mm:ss', () => {
    expect(scheduleInputToBody('2026-01-05T09:03')).toBe('2026-01-05 09:03:00');
    expect(scheduleInputToBody('')).toBe('');
  });
});

describe('campaignEditMode (spec part 2 §4)', () => {
  it('edits INATIVA, and PROGRAMADA only more than an hour ahead', () => {
    expect(campaignEditMode({ status: 'INATIVA', scheduledAt: null }, now)).toBe('full');
    expect(campaignEditMode({ status: 'PROGRAMADA', scheduledAt: inMinutes(61) }, now)).toBe('full');
    expect(campaignEditMode({ status: 'PROGRAMADA', scheduledAt: inMinutes(60) }, now)).toBe('readOnly');
    expect(campaignEditMode({ status: 'PROGRAMADA', scheduledAt: inMinutes(-5) }, now)).toBe('readOnly');
  });

  it('keeps only the messages of a cancelled campaign, nothing of a running or finished one', () => {
    expect(campaignEditMode({ status: 'CANCELADA', scheduledAt: inMinutes(-60) }, now)).toBe('messages');
    expect(campaignEditMode({ status: 'EM_ANDAMENTO', scheduledAt: inMinutes(-60) }, now)).toBe('readOnly');
    expect(campaignEditMode({ status: 'FINALIZADA', scheduledAt: inMinutes(-60) }, now)).toBe('readOnly');
  });
});
