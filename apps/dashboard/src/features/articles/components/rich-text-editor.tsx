import Link from '@tiptap/extension-link';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { useRovingTabIndex } from '../../../components/use-roving-tab-index';
import { Figure, type FigureAttributes } from './figure-node';
import { FigurePanel } from './figure-panel';
import './rich-text-editor.css';

// TipTap restricted to what the API's sanitiser keeps (packages/html/src/sanitize-body.ts): paragraphs,
// h2-h4, lists, blockquote, pre/code, hr, br, strong/em/u/s/code, links to http(s) or mailto with only
// href and rel, and pictures as figures (figure-node.ts). Nothing the editor produces is dropped on save.
export const richTextExtensions = [
  StarterKit.configure({
    heading: { levels: [2, 3, 4] },
    codeBlock: { HTMLAttributes: {} },
    link: false,
  }),
  Link.configure({
    openOnClick: false,
    autolink: true,
    protocols: ['http', 'https', 'mailto'],
    defaultProtocol: 'https',
    isAllowedUri: (url) => /^(https?:\/\/|mailto:)/i.test(url),
    HTMLAttributes: { rel: 'noopener noreferrer', target: null, class: null },
  }),
  Figure,
];

/** The article body as HTML, edited as rich text; `readOnly`: shown, not editable, without its toolbar. */
export function RichTextEditor({
  label,
  value,
  onChange,
  readOnly = false,
}: {
  label: string;
  value: string;
  onChange(html: string): void;
  readOnly?: boolean;
}) {
  const id = useId();
  const editor = useEditor({
    extensions: richTextExtensions,
    content: value,
    immediatelyRender: true,
    editable: !readOnly,
    editorProps: {
      attributes: {
        'aria-labelledby': `${id}-label`,
        role: 'textbox',
        'aria-multiline': 'true',
        class: 'rte-content',
      },
    },
    onUpdate: ({ editor }) => onChange(editor.isEmpty ? '' : editor.getHTML()),
  });
  // The permissions may arrive after the editor is made (no update event: the text did not change).
  useEffect(() => {
    if (editor.isEditable === readOnly) editor.setEditable(!readOnly, false);
    editor.view.dom.setAttribute('aria-readonly', String(readOnly));
  }, [editor, readOnly]);
  const active = useEditorState({
    editor,
    selector: ({ editor }) => ({
      bold: editor.isActive('bold'),
      italic: editor.isActive('italic'),
      strike: editor.isActive('strike'),
      h2: editor.isActive('heading', { level: 2 }),
      h3: editor.isActive('heading', { level: 3 }),
      bullet: editor.isActive('bulletList'),
      ordered: editor.isActive('orderedList'),
      quote: editor.isActive('blockquote'),
      link: editor.isActive('link'),
      figure: editor.isActive('figure'),
    }),
  });
  const roving = useRovingTabIndex<HTMLDivElement>();
  const [linking, setLinking] = useState(false);
  const [href, setHref] = useState('');
  // The picture panel: inserting a new figure (null) or editing the selected one (its attributes).
  const [figure, setFigure] = useState<{ editing: FigureAttributes | null } | null>(null);

  const chain = () => editor.chain().focus();
  const tool = (name: string, pressed: boolean, run: () => void) => (
    <button
      type="button"
      className="rte-tool"
      aria-pressed={pressed}
      onMouseDown={(event) => event.preventDefault()}
      onClick={run}
    >
      {name}
    </button>
  );

  function applyLink(event: FormEvent) {
    event.preventDefault();
    const url = href.trim();
    if (url) chain().extendMarkRange('link').setLink({ href: url }).run();
    else chain().extendMarkRange('link').unsetLink().run();
    setLinking(false);
  }

  function applyFigure(attributes: FigureAttributes) {
    if (figure?.editing) chain().updateAttributes('figure', attributes).run();
    else chain().insertContent({ type: 'figure', attrs: attributes }).run();
    setFigure(null);
  }

  return (
    <div className="field rte">
      <span id={`${id}-label`} className="field-label">
        {label}
      </span>
      {!readOnly && (
        <div className="rte-toolbar" role="toolbar" aria-label={`${label} formatting`} {...roving}>
          {tool('Bold', active.bold, () => chain().toggleBold().run())}
          {tool('Italic', active.italic, () => chain().toggleItalic().run())}
          {tool('Strikethrough', active.strike, () => chain().toggleStrike().run())}
          {tool('Heading', active.h2, () => chain().toggleHeading({ level: 2 }).run())}
          {tool('Subheading', active.h3, () => chain().toggleHeading({ level: 3 }).run())}
          {tool('Bulleted list', active.bullet, () => chain().toggleBulletList().run())}
          {tool('Numbered list', active.ordered, () => chain().toggleOrderedList().run())}
          {tool('Quote', active.quote, () => chain().toggleBlockquote().run())}
          {tool('Link', active.link, () => {
            setHref(editor.getAttributes('link').href ?? '');
            setLinking(true);
          })}
          {tool(active.figure ? 'Edit image' : 'Image', active.figure, () => {
            setLinking(false);
            setFigure({
              editing: active.figure ? (editor.getAttributes('figure') as FigureAttributes) : null,
            });
          })}
          {tool('Undo', false, () => chain().undo().run())}
          {tool('Redo', false, () => chain().redo().run())}
        </div>
      )}
      {figure && (
        <FigurePanel
          key={figure.editing?.src ?? 'new'}
          initial={figure.editing}
          onApply={applyFigure}
          onCancel={() => {
            setFigure(null);
            editor.commands.focus();
          }}
        />
      )}
      {linking && (
        // Not a nested <form>: the editor sits inside the article form.
        <fieldset className="row rte-link" aria-label="Link">
          <label htmlFor={`${id}-href`}>Link address</label>
          <input
            id={`${id}-href`}
            type="url"
            value={href}
            placeholder="https://"
            onChange={(event) => setHref(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') applyLink(event);
              if (event.key === 'Escape') setLinking(false);
            }}
          />
          <Button size="small" onClick={applyLink}>
            Apply link
          </Button>
          <Button size="small" onClick={() => setLinking(false)}>
            Cancel
          </Button>
        </fieldset>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
