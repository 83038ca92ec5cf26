import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChoiceFilter, FilterForm, useFilterText } from '../src/components/filter-fields';
import { PasswordField } from '../src/components/password-field';
import { ReasonField } from '../src/components/reason-field';
import { TableHead } from '../src/components/table-head';
import { tagsToText, textToTags } from '../src/components/tags-input';
import { TextField } from '../src/components/text-field';
import { errorOf } from './support/field-error';

// The shared fields the forms and filters are made of (src/components/), alone.

afterEach(cleanup);

describe('text field', () => {
  it('ties its hint and its error to the input, and marks it invalid only with an error', () => {
    const { rerender } = render(<TextField label="Domain" hint="Optional." />);
    const input = screen.getByLabelText('Domain');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    const [hintId] = (input.getAttribute('aria-describedby') ?? '').split(' ');
    expect(document.getElementById(hintId ?? '')?.textContent).toBe('Optional.');

    rerender(<TextField label="Domain" hint="Optional." error="Enter a host name" />);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf('Domain')).toBe('Enter a host name');
    expect(input.getAttribute('aria-describedby')?.split(' ')).toHaveLength(2);

    rerender(<TextField label="Domain" />);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
  });
});

function Password() {
  const [value, setValue] = useState('');
  return <PasswordField label="Password" value={value} onChange={setValue} />;
}

describe('password field', () => {
  it('generates a password and shows it; Hide and Show switch it', async () => {
    render(<Password />);
    const user = userEvent.setup();
    const input = screen.getByLabelText('Password') as HTMLInputElement;
    expect(input.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(input.value).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(input.type).toBe('text');
    const toggle = screen.getByRole('button', { name: 'Hide' });
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await user.click(toggle);
    expect(input.type).toBe('password');
    expect(screen.getByRole('button', { name: 'Show' }).getAttribute('aria-pressed')).toBe('false');
  });
});

describe('tags as text', () => {
  it('splits on commas, trims and drops empty ones; joins with a comma and a space', () => {
    expect(textToTags(' world, politics ,, ')).toEqual(['world', 'politics']);
    expect(textToTags('')).toEqual([]);
    expect(tagsToText(['a', 'b c'])).toBe('a, b c');
  });
});

function Reason() {
  const [value, setValue] = useState('');
  return (
    <>
      <ReasonField value={value} onChange={setValue} />
      <output>{value}</output>
    </>
  );
}

describe('reason field', () => {
  it('takes at most the API’s 500 characters, with the words the publisher will see', async () => {
    render(<Reason />);
    const input = screen.getByLabelText('Reason (optional)');
    expect(input.getAttribute('maxlength')).toBe('500');
    expect(screen.getByText('Sent with your decision; the publisher sees it with the article.')).toBeTruthy();
    await userEvent.setup().type(input, 'Off topic');
    expect(screen.getByRole('status').textContent).toBe('Off topic');
  });
});

function Filters({ urlText }: { urlText?: string }) {
  const [text, setText] = useFilterText(urlText);
  const [picked, setPicked] = useState<string | undefined>('b');
  const [searched, setSearched] = useState('');
  return (
    <FilterForm label="Filters" onSearch={() => setSearched(text)}>
      <ChoiceFilter
        label="Letter"
        allLabel="All letters"
        choices={[
          { value: 'a', label: 'Alpha' },
          { value: 'b', label: 'Bravo' },
        ]}
        value={picked}
        onChange={setPicked}
      />
      <input aria-label="Text" value={text} onChange={(event) => setText(event.target.value)} />
      <output>{picked ?? 'none'}</output>
      <output aria-label="Searched">{searched}</output>
    </FilterForm>
  );
}

describe('filter fields', () => {
  it('offers "all" first, and picking it means no value', async () => {
    render(<Filters />);
    const user = userEvent.setup();
    const select = screen.getByLabelText('Letter') as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual(['All letters', 'Alpha', 'Bravo']);
    expect(select.value).toBe('b');
    await user.selectOptions(select, '');
    const picked = () => screen.getAllByRole('status')[0]?.textContent;
    expect(picked()).toBe('none');
    await user.selectOptions(select, 'a');
    expect(picked()).toBe('a');
    expect(document.querySelector('search > form')).toBeTruthy();
    await user.type(screen.getByLabelText('Text'), 'tide{Enter}');
    expect(screen.getByRole('status', { name: 'Searched' }).textContent).toBe('tide');
  });

  it('keeps the typed text until the URL’s value changes, then shows that', async () => {
    const { rerender } = render(<Filters urlText="council" />);
    const input = screen.getByLabelText('Text') as HTMLInputElement;
    expect(input.value).toBe('council');
    await userEvent.setup().type(input, ' hall');
    rerender(<Filters urlText="council" />);
    expect(input.value).toBe('council hall');
    rerender(<Filters urlText="harbour" />);
    expect(input.value).toBe('harbour');
    rerender(<Filters />);
    expect(input.value).toBe('');
  });
});

describe('table head', () => {
  it('names each column, then an Actions column only screen readers hear', () => {
    render(
      <table>
        <TableHead columns={['Name', 'Created']} />
      </table>,
    );
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Name', 'Created', 'Actions']);
    expect(headers[2]?.querySelector('.visually-hidden')).toBeTruthy();
  });
});
