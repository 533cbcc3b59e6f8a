import { slugify } from '../../src/posts/slugs';

const SUFFIXED = /^(.*)-(\d+)$/;

/**
 * Unique slugs the way the service makes them (`jazz-night`, `jazz-night-2`, ...), without a
 * query per row: it remembers, for every base, the highest suffix in use. Loading the slugs already
 * in the table first makes every new slug a suffix above any existing one, so none can collide,
 * even with slugs the service wrote itself.
 */
export class SlugAllocator {
  private readonly highestSuffix = new Map<string, number>();
  private readonly baseOfText = new Map<string, string>();

  /** Records a slug already stored. */
  remember(slug: string): void {
    const match = SUFFIXED.exec(slug);
    if (match) this.raise(match[1], Number(match[2]));
    this.raise(slug, 1);
  }

  /** The next free slug for this title or name. */
  allocate(text: string): string {
    let base = this.baseOfText.get(text);
    if (base === undefined) {
      base = slugify(text) || 'item';
      this.baseOfText.set(text, base);
    }
    const highest = this.highestSuffix.get(base);
    const slug = highest === undefined ? base : `${base}-${highest + 1}`;
    // A later title whose own slug is this one (or whose base this one extends) must not get it again.
    this.remember(slug);
    return slug;
  }

  private raise(base: string, suffix: number): void {
    if (!Number.isSafeInteger(suffix)) return;
    if ((this.highestSuffix.get(base) ?? 0) < suffix) this.highestSuffix.set(base, suffix);
  }
}
