import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** `!` escapes LIKE wildcards the same way on SQLite and MySQL (a backslash does not). */
export function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, '!$&');
}

/**
 * The venue/organizer `search`: the text is split into words on anything but letters and digits;
 * a row matches when one of `columns` contains every word (case-insensitive). "temple avenue"
 * matches "100, Avenue du Temple".
 */
export function applyWordSearch<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  columns: string[],
  text: string,
): SelectQueryBuilder<T> {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .slice(0, 10);
  if (words.length === 0) return query;
  const parameters = Object.fromEntries(words.map((word, index) => [`searchWord${index}`, `%${escapeLike(word)}%`]));
  query.andWhere(
    new Brackets((anyField) => {
      for (const column of columns) {
        anyField.orWhere(
          new Brackets((everyWord) => {
            words.forEach((_word, index) => everyWord.andWhere(`LOWER(${column}) LIKE :searchWord${index} ESCAPE '!'`));
          }),
        );
      }
    }),
    parameters,
  );
  return query;
}
