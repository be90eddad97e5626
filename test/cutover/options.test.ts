/**
 * One command line for npm run shadow and npm run replay (scripts/cutover-options.ts): an option
 * means the same in both, and the spellings of before still work, each as it did in its command.
 */
import { parseOptions, usage } from '../../scripts/cutover-options';

describe('the options of shadow and replay', () => {
  it('are read the same way in both commands', () => {
    for (const command of ['shadow', 'replay'] as const) {
      const parsed = parseOptions(command, [
        '--candidate',
        'http://new:8080/',
        '--out',
        'r',
        '--mirror-writes',
        '--ignore',
        'a',
        '--ignore',
        'b',
        '--max-file-mb',
        '8',
      ]);
      expect(parsed.values).toEqual({
        candidate: 'http://new:8080/',
        out: 'r',
        'mirror-writes': true,
        ignore: ['a', 'b'],
        'max-file-mb': '8',
      });
    }
  });

  it('keep the old spellings: --host is the listen address of shadow and the recorded host of replay', () => {
    expect(parseOptions('shadow', ['--host', '127.0.0.1']).values).toEqual({ 'listen-host': '127.0.0.1' });
    expect(
      parseOptions('replay', ['--host', 'legacy.internal', '--target', 'http://x/', '--include-writes']).values,
    ).toEqual({ 'recorded-host': 'legacy.internal', candidate: 'http://x/', 'mirror-writes': true });
  });

  it('refuse an option of the other command, and an old spelling given with the new one', () => {
    expect(() => parseOptions('replay', ['--primary', 'http://x/'])).toThrow("Unknown option '--primary'");
    expect(() => parseOptions('shadow', ['--recorded-host', 'x'])).toThrow("Unknown option '--recorded-host'");
    expect(() => parseOptions('replay', ['--host', 'a', '--recorded-host', 'b'])).toThrow(
      '--host and --recorded-host are the same option',
    );
  });

  it('are listed in each command’s usage', () => {
    expect(usage('shadow')).toMatch(
      /^usage: npm run shadow -- --primary <url> --candidate <url> .*\[--listen-host 0\.0\.0\.0\]/,
    );
    expect(usage('replay')).toMatch(
      /^usage: npm run replay -- <file\.har> --candidate <url> .*\[--recorded-host <name>\]/,
    );
    expect(usage('replay')).not.toContain('--primary');
  });
});
