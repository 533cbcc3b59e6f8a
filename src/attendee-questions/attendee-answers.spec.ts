import { checkAnswers } from './attendee-answers';
import { AttendeeField, parseAttendeeFields, slugFromLabel } from './attendee-fields';

const field = (overrides: Partial<AttendeeField>): AttendeeField => ({
  type: 'text',
  label: 'Field',
  slug: 'field',
  required: false,
  options: [],
  description: '',
  ...overrides,
});
const TODAY = '2030-06-01';

describe('attendee answers', () => {
  it('keeps normalised answers of known fields and drops unknown keys', () => {
    const fields = [
      field({ slug: 'name', label: 'Name', required: true }),
      field({ slug: 'age', type: 'number' }),
      field({ slug: 'diet', type: 'checkbox', options: ['vegan', 'halal', 'none'] }),
    ];
    expect(checkAnswers(fields, { name: '  Ada ', age: '36', diet: ['none', 'vegan'], extra: 'x' }, TODAY)).toEqual({
      values: { name: 'Ada', age: 36, diet: ['vegan', 'none'] },
      problems: [],
    });
    expect(checkAnswers(fields, { name: 'Ada', diet: 'halal' }, TODAY).values).toEqual({ name: 'Ada', diet: ['halal'] });
  });

  it('names each missing required answer', () => {
    const fields = [field({ slug: 'email', type: 'email', label: 'Email', required: true }), field({ slug: 'note', required: false })];
    for (const answers of [undefined, null, {}, { email: '' }, { email: '   ' }, { email: null }]) {
      expect(checkAnswers(fields, answers, TODAY).problems).toEqual([{ slug: 'email', reason: 'Email is required' }]);
    }
    const checkbox = [field({ slug: 'days', type: 'checkbox', options: ['fri', 'sat'], required: true })];
    expect(checkAnswers(checkbox, { days: [] }, TODAY).problems).toHaveLength(1);
  });

  it('refuses answers of the wrong type', () => {
    const cases: Array<[Partial<AttendeeField>, unknown]> = [
      [{ type: 'text' }, 42],
      [{ type: 'text' }, 'x'.repeat(1001)],
      [{ type: 'textarea' }, { nested: true }],
      [{ type: 'email' }, 'not-an-email'],
      [{ type: 'telephone' }, 'call me'],
      [{ type: 'telephone' }, '12'],
      [{ type: 'url' }, 'javascript:alert(1)'],
      [{ type: 'url' }, 'example.org'],
      [{ type: 'number' }, 'twelve'],
      [{ type: 'number' }, Number.NaN],
      [{ type: 'date' }, '2030-02-30'],
      [{ type: 'date' }, '01/02/2030'],
      [{ type: 'birth_date' }, '2030-06-02'],
      [{ type: 'select', options: ['a', 'b'] }, 'c'],
      [{ type: 'radio', options: ['a', 'b'] }, ['a']],
      [{ type: 'checkbox', options: ['a', 'b'] }, ['a', 'c']],
      [{ type: 'checkbox', options: ['a', 'b'] }, [1]],
    ];
    for (const [definition, answer] of cases) {
      const result = checkAnswers([field(definition)], { field: answer }, TODAY);
      expect({ definition, answer, problems: result.problems.length, values: result.values }).toEqual({
        definition,
        answer,
        problems: 1,
        values: {},
      });
    }
  });

  it('accepts well-formed answers of every type', () => {
    const cases: Array<[Partial<AttendeeField>, unknown, unknown]> = [
      [{ type: 'textarea' }, 'line one\nline two', 'line one\nline two'],
      [{ type: 'email' }, 'ada@example.org', 'ada@example.org'],
      [{ type: 'telephone' }, '+44 (0)20 7946-0000', '+44 (0)20 7946-0000'],
      [{ type: 'url' }, 'https://example.org/a', 'https://example.org/a'],
      [{ type: 'number' }, -2.5, -2.5],
      [{ type: 'date' }, '2030-02-28', '2030-02-28'],
      [{ type: 'birth_date' }, '2030-06-01', '2030-06-01'],
      [{ type: 'select', options: ['a', 'b'] }, 'b', 'b'],
      [{ type: 'radio', options: ['a', 'b'] }, 'a', 'a'],
    ];
    for (const [definition, answer, stored] of cases) {
      expect(checkAnswers([field(definition)], { field: answer }, TODAY)).toEqual({ values: { field: stored }, problems: [] });
    }
  });

  it('refuses answers that are not an object', () => {
    expect(checkAnswers([field({})], ['a'], TODAY).problems).toEqual([
      { slug: '', reason: 'answers must be an object of answers by field slug' },
    ]);
  });
});

describe('attendee field definitions', () => {
  it('reads fields in order, with slugs from labels and defaults', () => {
    expect(
      parseAttendeeFields([
        { type: 'text', label: 'Full Name', required: 'yes' },
        { type: 'select', label: 'T-shirt size', slug: 'size', options: ['S', ' M '], description: 'Pick one' },
      ]),
    ).toEqual([
      { type: 'text', label: 'Full Name', slug: 'full-name', required: true, options: [], description: '' },
      { type: 'select', label: 'T-shirt size', slug: 'size', required: false, options: ['S', 'M'], description: 'Pick one' },
    ]);
    expect(parseAttendeeFields({ 0: { type: 'email', label: 'Email' } })[0].slug).toBe('email');
    expect(parseAttendeeFields('[{"type":"url","label":"Site"}]')[0].type).toBe('url');
    expect(parseAttendeeFields([])).toEqual([]);
    expect(parseAttendeeFields('')).toEqual([]);
    expect(slugFromLabel('Régime alimentaire!')).toBe('regime-alimentaire');
  });

  it('names every bad place', () => {
    const attempt = () =>
      parseAttendeeFields([
        { type: 'colour', label: 'A' },
        { type: 'text', label: '' },
        { type: 'select', label: 'B' },
        { type: 'text', label: 'C', options: ['x'] },
        { type: 'text', label: 'D', slug: 'Bad Slug' },
        { type: 'text', label: 'E', slug: 'e' },
        { type: 'text', label: 'F', slug: 'e', required: 'maybe' },
      ]);
    expect(attempt).toThrow(
      expect.objectContaining({
        extraData: {
          params: {
            'attendee_information_fields[0][type]': expect.any(String),
            'attendee_information_fields[1][label]': expect.any(String),
            'attendee_information_fields[2][options]': 'a select field needs options',
            'attendee_information_fields[3][options]': 'a text field takes no options',
            'attendee_information_fields[4][slug]': expect.any(String),
            'attendee_information_fields[6][slug]': 'slug e is used by another field of this ticket',
            'attendee_information_fields[6][required]': 'required must be a boolean',
          },
        },
      }),
    );
    expect(() => parseAttendeeFields('not json')).toThrow();
    expect(() => parseAttendeeFields(42)).toThrow();
    expect(() => parseAttendeeFields(Array.from({ length: 51 }, (_, i) => ({ type: 'text', label: `F${i}` })))).toThrow();
  });
});
