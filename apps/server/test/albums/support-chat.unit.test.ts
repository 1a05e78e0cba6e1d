import { describe, expect, it } from 'vitest';
import { supportChatUrl } from '../../src/services/albums/support-chat.ts';

describe('the web-app page’s support chat link (supportChatKey)', () => {
  it('opens an https chat link as it is', () => {
    expect(supportChatUrl('https://tawk.to/chat/abc/def')).toBe('https://tawk.to/chat/abc/def');
    expect(supportChatUrl('  https://wa.me/15555550123  ')).toBe('https://wa.me/15555550123');
  });

  it('opens nothing for an empty key, a bare widget id or any other scheme', () => {
    for (const key of [
      '',
      '   ',
      'abc123',
      'http://chat.example/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'https://user:pass@chat.example/',
    ])
      expect(supportChatUrl(key), key).toBe('');
  });
});
