import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { FormCheckbox, FormTagsField, FormTextField } from '../src/components/form/form-fields';
import { type MappingRow, TagMappingRows } from '../src/features/publishers/components/tag-mapping-rows';

// The fields bound to a form (components/form/form-fields.tsx) and the import rules' mapping rows, alone:
// what they hold is read back from the form's values.

afterEach(cleanup);

interface Values {
  title: string;
  tags: string;
  enabled: boolean;
  tagMappings: MappingRow[];
}

function Bound({ onValues }: { onValues(values: Values): void }) {
  const form = useForm<Values>({
    defaultValues: { title: 'Tide', tags: 'sea, boats', enabled: false, tagMappings: [] },
  });
  const titleChanges = useRef<string[]>([]).current;
  return (
    <form
      aria-label="Bound"
      onSubmit={form.handleSubmit((values) =>
        onValues({ ...values, title: `${values.title}|${titleChanges.length}` }),
      )}
    >
      <FormTextField
        control={form.control}
        name="title"
        inputName="headline"
        label="Title"
        onValueChange={(value) => titleChanges.push(value)}
      />
      <FormTagsField control={form.control} name="tags" label="Tags" />
      <FormCheckbox control={form.control} name="enabled">
        Enabled
      </FormCheckbox>
      <TagMappingRows control={form.control} />
      <button type="submit">Done</button>
    </form>
  );
}

async function submitted(act: (user: ReturnType<typeof userEvent.setup>) => Promise<void>): Promise<Values> {
  let values: Values | undefined;
  render(<Bound onValues={(v) => (values = v)} />);
  const user = userEvent.setup();
  await act(user);
  await user.click(screen.getByRole('button', { name: 'Done' }));
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (!values) throw new Error('the form was not submitted');
  return values;
}

describe('fields bound to a form', () => {
  it('start from the form’s values and give the input its own name', () => {
    render(<Bound onValues={() => {}} />);
    const title = screen.getByLabelText('Title') as HTMLInputElement;
    expect(title.value).toBe('Tide');
    expect(title.name).toBe('headline');
    expect((screen.getByLabelText('Tags') as HTMLInputElement).value).toBe('sea, boats');
    expect((screen.getByLabelText('Enabled') as HTMLInputElement).checked).toBe(false);
  });

  it('hand typed text, tags and a ticked box to the form, and tell the caller of each change', async () => {
    const values = await submitted(async (user) => {
      await user.type(screen.getByLabelText('Title'), 's');
      await user.clear(screen.getByLabelText('Tags'));
      await user.type(screen.getByLabelText('Tags'), 'harbour');
      await user.click(screen.getByLabelText('Enabled'));
    });
    expect(values).toMatchObject({ title: 'Tides|1', tags: 'harbour', enabled: true });
  });
});

describe('tag mapping rows', () => {
  it('adds rows, drops one (its tag cleared and locked) and removes another', async () => {
    const values = await submitted(async (user) => {
      await user.click(screen.getByRole('button', { name: 'Add a mapping' }));
      await user.click(screen.getByRole('button', { name: 'Add a mapping' }));
      await user.click(screen.getByRole('button', { name: 'Add a mapping' }));
      await user.type(screen.getByLabelText('Feed category 1'), 'Soccer');
      await user.type(screen.getByLabelText('Our tag for feed category 1'), 'Football');
      await user.type(screen.getByLabelText('Feed category 2'), 'Promo');
      await user.type(screen.getByLabelText('Our tag for feed category 2'), 'x');
      await user.click(screen.getAllByLabelText('Drop')[1] as HTMLElement);
      const dropped = screen.getByLabelText('Our tag for feed category 2') as HTMLInputElement;
      expect(dropped.disabled).toBe(true);
      expect(dropped.value).toBe('');
      await user.click(screen.getByRole('button', { name: 'Remove mapping 3' }));
    });
    expect(values.tagMappings.map(({ from, to, drop }) => ({ from, to, drop }))).toEqual([
      { from: 'Soccer', to: 'Football', drop: false },
      { from: 'Promo', to: 'x', drop: true },
    ]);
    expect(new Set(values.tagMappings.map((row) => row.key)).size).toBe(2);
  });

  it('gives a row added after a removal a key no other row has', async () => {
    const values = await submitted(async (user) => {
      await user.click(screen.getByRole('button', { name: 'Add a mapping' }));
      await user.click(screen.getByRole('button', { name: 'Add a mapping' }));
      await user.click(screen.getByRole('button', { name: 'Remove mapping 1' }));
      await user.click(screen.getByRole('button', { name: 'Add a mapping' }));
    });
    const keys = values.tagMappings.map((row) => row.key);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });
});
