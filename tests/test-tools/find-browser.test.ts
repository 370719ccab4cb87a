import { describe, expect, it } from 'vitest';
import { browserHelp, findBrowser, requireBrowser } from '../../scripts/test-tools/find-browser.mjs';
import { fakeMachine } from './machine.js';

const found = (path: string, source: string) => ({ kind: 'found', path, source });

describe('findBrowser', () => {
  it('takes CHROMIUM_PATH over every other browser on the machine', () => {
    const m = fakeMachine({
      env: { CHROMIUM_PATH: '/opt/mine/chrome', PATH: '/usr/bin' },
      files: ['/opt/mine/chrome', '/usr/bin/chromium'],
      playwrightExecutable: '/usr/bin/chromium',
    });
    expect(findBrowser(m)).toEqual(found('/opt/mine/chrome', 'CHROMIUM_PATH'));
  });

  it('never replaces a CHROMIUM_PATH that points nowhere with a guess', () => {
    const r = findBrowser(fakeMachine({ env: { CHROMIUM_PATH: '/nonexistent' }, files: ['/usr/bin/chromium'] }));
    expect(r.kind).toBe('invalid');
    expect(r.kind === 'invalid' && r.message).toMatch(/CHROMIUM_PATH is \/nonexistent, which is not an executable file/);
  });

  it('prefers the Chromium this playwright-core installed', () => {
    const pw = '/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';
    expect(findBrowser(fakeMachine({ playwrightExecutable: pw, files: [pw, '/usr/bin/chromium'] }))).toEqual(found(pw, 'Playwright'));
  });

  it("finds another revision in Playwright's cache, newest first, in either layout", () => {
    const cache = '/home/dev/.cache/ms-playwright';
    const dirs = { [cache]: ['chromium-1100', 'chromium-1200', 'ffmpeg-1011', 'chromium_headless_shell-1200'] };
    const newest = `${cache}/chromium-1200/chrome-linux64/chrome`;
    const older = `${cache}/chromium-1100/chrome-linux/chrome`;
    // playwright-core expects revision 1255, which is not installed.
    const m = (files: string[]) => fakeMachine({ dirs, files, playwrightExecutable: `${cache}/chromium-1255/chrome-linux64/chrome` });
    expect(findBrowser(m([older, newest]))).toEqual(found(newest, 'Playwright'));
    expect(findBrowser(m([older]))).toEqual(found(older, 'Playwright'));
  });

  it('reads the cache where PLAYWRIGHT_BROWSERS_PATH or XDG_CACHE_HOME put it, and the macOS cache', () => {
    const custom = fakeMachine({
      env: { PLAYWRIGHT_BROWSERS_PATH: '/srv/pw' },
      dirs: { '/srv/pw': ['chromium-1200'] },
      files: ['/srv/pw/chromium-1200/chrome-linux64/chrome'],
    });
    expect(findBrowser(custom)).toEqual(found('/srv/pw/chromium-1200/chrome-linux64/chrome', 'Playwright'));
    const xdg = fakeMachine({
      env: { XDG_CACHE_HOME: '/var/cache/dev' },
      dirs: { '/var/cache/dev/ms-playwright': ['chromium-1200'] },
      files: ['/var/cache/dev/ms-playwright/chromium-1200/chrome-linux64/chrome'],
    });
    expect(findBrowser(xdg)).toEqual(found('/var/cache/dev/ms-playwright/chromium-1200/chrome-linux64/chrome', 'Playwright'));
    const mac = '/Users/dev/Library/Caches/ms-playwright/chromium-1200/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing';
    const darwin = fakeMachine({
      platform: 'darwin',
      arch: 'arm64',
      home: '/Users/dev',
      dirs: { '/Users/dev/Library/Caches/ms-playwright': ['chromium-1200'] },
      files: [mac],
    });
    expect(findBrowser(darwin)).toEqual(found(mac, 'Playwright'));
  });

  it("uses Debian's /usr/bin/chromium, then the other usual Linux locations", () => {
    expect(findBrowser(fakeMachine({ files: ['/usr/bin/chromium', '/usr/bin/google-chrome'] }))).toEqual(found('/usr/bin/chromium', 'known location'));
    expect(findBrowser(fakeMachine({ files: ['/opt/google/chrome/chrome'] }))).toEqual(found('/opt/google/chrome/chrome', 'known location'));
  });

  it('finds Chrome or Chromium in /Applications or ~/Applications on macOS, and not Linux paths there', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findBrowser(fakeMachine({ platform: 'darwin', home: '/Users/dev', files: [chrome] }))).toEqual(found(chrome, 'known location'));
    const mine = '/Users/dev/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(findBrowser(fakeMachine({ platform: 'darwin', home: '/Users/dev', files: [mine] }))).toEqual(found(mine, 'known location'));
    expect(findBrowser(fakeMachine({ platform: 'darwin', env: { PATH: '' }, files: ['/usr/bin/chromium'] })).kind).toBe('missing');
  });

  it('looks chromium, chromium-browser and google-chrome up on PATH', () => {
    const env = { PATH: '/home/dev/bin:/nix/profile/bin' };
    expect(findBrowser(fakeMachine({ env, files: ['/nix/profile/bin/chromium'] }))).toEqual(found('/nix/profile/bin/chromium', 'PATH'));
    expect(findBrowser(fakeMachine({ env, files: ['/home/dev/bin/chromium-browser'] }))).toEqual(found('/home/dev/bin/chromium-browser', 'PATH'));
    expect(findBrowser(fakeMachine({ env, files: ['/nix/profile/bin/google-chrome'] }))).toEqual(found('/nix/profile/bin/google-chrome', 'PATH'));
    // Not on PATH, not in a usual place: not found.
    expect(findBrowser(fakeMachine({ env, files: ['/elsewhere/chromium'] })).kind).toBe('missing');
  });

  it('says what it searched when there is none', () => {
    const r = findBrowser(fakeMachine({ env: { PATH: '/usr/bin' } }));
    expect(r.kind).toBe('missing');
    expect(r.kind === 'missing' && r.searched).toEqual(
      expect.arrayContaining([
        "Playwright's browsers in /home/dev/.cache/ms-playwright",
        '/usr/bin/chromium',
        'PATH (chromium, chromium-browser, google-chrome, google-chrome-stable, chrome)',
      ]),
    );
  });
});

describe('requireBrowser (a suite run on its own: no installing)', () => {
  it('returns the path, or throws the one message saying how to get a browser', () => {
    expect(requireBrowser(fakeMachine({ files: ['/usr/bin/chromium'] }))).toBe('/usr/bin/chromium');
    expect(() => requireBrowser(fakeMachine())).toThrow(
      /^No Chrome or Chromium for the browser tests: `npm test` finds or installs one; run alone, a suite only looks\.\nInstall one and run again/,
    );
    expect(browserHelp()).toMatch(/npx playwright-core install chromium.*apt-get install chromium.*CHROMIUM_PATH/s);
    expect(() => requireBrowser(fakeMachine({ env: { CHROMIUM_PATH: '/nonexistent' } }))).toThrow(/CHROMIUM_PATH is \/nonexistent/);
  });
});
