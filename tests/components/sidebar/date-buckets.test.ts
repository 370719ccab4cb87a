import { expect } from '../helpers.js';
import { bucketOf, bucketize } from '../../../components/sidebar/date-buckets.js';
import { row } from './setup.js';

// A fixed "now" (a Wednesday afternoon, local time) so the buckets don't depend on the clock.
const NOW = new Date(2026, 2, 18, 15, 30);
const at = (daysAgo: number, hour = 12) => new Date(2026, 2, 18 - daysAgo, hour).getTime() / 1000;

describe('date buckets', () => {
  it('puts a time in Today, Yesterday, This week or Older by local calendar day', () => {
    expect(bucketOf(at(0, 0), NOW)).to.equal('Today');
    expect(bucketOf(at(1, 23), NOW)).to.equal('Yesterday');
    expect(bucketOf(at(1, 0), NOW)).to.equal('Yesterday');
    expect(bucketOf(at(2), NOW)).to.equal('This week');
    expect(bucketOf(at(6), NOW)).to.equal('This week');
    expect(bucketOf(at(8), NOW)).to.equal('Older');
  });

  it('groups pinned first, then by date, newest first inside each bucket, with one header per non-empty bucket', () => {
    const rows = [
      row('old', { updated_at: at(40) }),
      row('today-early', { updated_at: at(0, 9) }),
      row('pinned-old', { updated_at: at(90), pinned: true }),
      row('today-late', { updated_at: at(0, 14) }),
      row('week', { updated_at: at(4) }),
      row('pinned-new', { updated_at: at(0, 10), pinned: true }),
    ];
    const items = bucketize(rows, NOW);
    expect(items.map((i) => (i.kind === 'header' ? `# ${i.label}` : i.key))).to.deep.equal([
      '# Pinned',
      'pinned-new',
      'pinned-old',
      '# Today',
      'today-late',
      'today-early',
      '# This week',
      'week',
      '# Older',
      'old',
    ]);
    // Session indexes count sessions only.
    expect(items.flatMap((i) => (i.kind === 'session' ? [i.index] : []))).to.deep.equal([0, 1, 2, 3, 4, 5]);
  });

  it('returns nothing for no rows', () => {
    expect(bucketize([], NOW)).to.deep.equal([]);
  });
});
