import { richTextToPlainText } from './plain-text';

describe('richTextToPlainText', () => {
  it('turns paragraphs, line breaks and list items into lines', () => {
    expect(
      richTextToPlainText('<p>Doors at <strong>7</strong>.<br />Bring a friend.</p>\n<ul><li>Jazz</li><li>Blues</li></ul><p>See you!</p>'),
    ).toBe('Doors at 7.\nBring a friend.\n\n- Jazz\n- Blues\n\nSee you!');
  });

  it('shows escaped characters as themselves', () => {
    expect(richTextToPlainText('<p>Fish &amp; chips &lt;3 &quot;fresh&quot; &eacute;t&eacute;</p>')).toBe('Fish & chips <3 "fresh" été');
  });

  it('keeps the line breaks of plain text and trims blank runs', () => {
    expect(richTextToPlainText('First line\nsecond line\n\n\n\nNext paragraph  ')).toBe('First line\nsecond line\n\nNext paragraph');
  });

  it('treats source line breaks inside HTML as spaces', () => {
    expect(richTextToPlainText('<p>One\nparagraph</p>')).toBe('One paragraph');
  });

  it('gives an empty string for nothing', () => {
    expect(richTextToPlainText(null)).toBe('');
    expect(richTextToPlainText('')).toBe('');
  });
});
