import { describe, expect, it } from 'vitest';
import {
  adviceForRefusal,
  describeSummary,
  type RobotUploadSummary,
} from '../../src/cli/robot-upload.ts';

const summary = (extra: Partial<RobotUploadSummary>): RobotUploadSummary => ({
  uploaded: 0,
  attached: 0,
  skipped: 0,
  refused: 0,
  failed: 0,
  notSent: [],
  links: [],
  ...extra,
});

describe('what the robot client says', () => {
  it('counts a run as uploaded and already sent, with attached and failed where there are any', () => {
    expect(describeSummary(summary({ uploaded: 3, skipped: 10 }))).toBe(
      '3 uploaded, 10 already sent.\n',
    );
    expect(describeSummary(summary({ uploaded: 1, attached: 2, skipped: 4, failed: 1 }))).toMatch(
      /^1 uploaded, 2 attached, 4 already sent, 1 failed\.$/m,
    );
  });

  it('says an unknown key is unknown, without naming any robot or event', () => {
    const text = describeSummary(
      summary({ stopped: 'invalid_key', advice: adviceForRefusal('invalid_key') }),
    );
    expect(text).toContain('This robot key is unknown: no robot has it.');
    expect(text).toContain('"New key"');
  });

  it('says a right key attached to no event is so, and where to attach it', () => {
    expect(adviceForRefusal('robot_not_attached')).toBe(
      'This robot key is not attached to any event. In the console: Events → <event> → General → Robots → pick this robot and save, or create the robot from the event.',
    );
  });

  it('names the event a key feeds when another one was asked for', () => {
    expect(
      adviceForRefusal('robot_other_event', { eventName: 'NOPE', ownEventName: 'AB12' }),
    ).toMatch(/^This robot key feeds event AB12, not NOPE: run with --event AB12/);
    expect(adviceForRefusal('event_not_found')).toBeUndefined();
  });
});
