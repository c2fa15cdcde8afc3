import { youtubeEmbedUrl, youtubeThumbnailUrl, youtubeVideoId } from '@balcao/shared';
import { describe, expect, it } from 'vitest';

// DOMAIN §15: a YouTube link or id in, only the 11-character id kept (packages/shared/src/youtube.ts).
const ID = 'dQw4w9WgXcQ';

describe('youtubeVideoId', () => {
  it('takes a bare id, trimmed', () => {
    expect(youtubeVideoId(ID)).toBe(ID);
    expect(youtubeVideoId(`  ${ID}\n`)).toBe(ID);
    expect(youtubeVideoId('a-b_C123456')).toBe('a-b_C123456');
  });

  it('reads the id of every link form: watch?v=, youtu.be/, embed/, shorts/', () => {
    for (const link of [
      `https://www.youtube.com/watch?v=${ID}`,
      `https://youtube.com/watch?v=${ID}&t=42s`,
      `https://www.youtube.com/watch?feature=share&v=${ID}`,
      `https://m.youtube.com/watch?v=${ID}`,
      `http://www.youtube.com/watch/?v=${ID}`,
      `https://music.youtube.com/watch?v=${ID}&list=RD`,
      `https://youtu.be/${ID}`,
      `https://youtu.be/${ID}?si=abc&t=3`,
      `youtu.be/${ID}`,
      `www.youtube.com/watch?v=${ID}`,
      `https://www.youtube.com/embed/${ID}`,
      `https://www.youtube.com/embed/${ID}?start=10`,
      `https://www.youtube-nocookie.com/embed/${ID}`,
      `https://www.youtube.com/shorts/${ID}`,
      `https://youtube.com/shorts/${ID}/?feature=share`,
      `HTTPS://WWW.YOUTUBE.COM/watch?v=${ID}`,
    ]) {
      expect(youtubeVideoId(link), link).toBe(ID);
    }
  });

  it('refuses anything else', () => {
    for (const bad of [
      '',
      'dQw4w9WgXc',
      'dQw4w9WgXcQQ',
      'dQw4w9WgX Q',
      'dQw4w9WgX<Q',
      `https://evil.test/watch?v=${ID}`,
      `https://youtube.com.evil.test/watch?v=${ID}`,
      `https://notyoutube.com/watch?v=${ID}`,
      `https://youtu.be.evil.test/${ID}`,
      `javascript:alert(1)//${ID}`,
      `ftp://youtu.be/${ID}`,
      `https://user:pass@youtu.be/${ID}`,
      `https://youtu.be:8443/${ID}`,
      `https://www.youtube.com/watch?v=${ID}x`,
      `https://www.youtube.com/watch?v=`,
      `https://www.youtube.com/watch?list=${ID}`,
      `https://www.youtube.com/v/${ID}`,
      `https://www.youtube.com/embed/${ID}/extra`,
      `https://www.youtube.com/embed/../${ID}`,
      `https://youtu.be/${ID}/more`,
      `https://youtu.be/`,
      `https://www.youtube-nocookie.com/shorts/${ID}`,
      `https://www.youtube-nocookie.com/watch?v=${ID}`,
      `https://www.youtube.com/${ID}`,
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>',
    ]) {
      expect(youtubeVideoId(bad), bad).toBeNull();
    }
  });

  it('builds the thumbnail and the privacy-enhanced embed from the id', () => {
    expect(youtubeThumbnailUrl(ID)).toBe(`https://i.ytimg.com/vi/${ID}/hqdefault.jpg`);
    expect(youtubeEmbedUrl(ID)).toBe(`https://www.youtube-nocookie.com/embed/${ID}`);
  });
});
