import { Node } from '@tiptap/react';

// A picture in the body as the API's sanitiser keeps it (packages/html: figure, img with src, alt, title,
// width and height, figcaption): `<figure><img src alt width height><figcaption>caption</figcaption></figure>`.
// One atom node whose attributes are the img's and the caption's text, so loading a stored body and saving it
// writes the same HTML (rich-text-figure.test.tsx).

export interface FigureAttributes {
  src: string;
  alt: string;
  caption: string;
  width: string | null;
  height: string | null;
  title: string | null;
}

const imgOf = (element: HTMLElement) => element.querySelector('img');

/** Read from the figure's img (or its figcaption), never written on the figure element itself. */
const fromImg = (name: string) => ({
  default: null,
  parseHTML: (element: HTMLElement) => imgOf(element)?.getAttribute(name) ?? null,
  renderHTML: () => ({}),
});

export const Figure = Node.create({
  name: 'figure',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,

  addAttributes() {
    return {
      src: fromImg('src'),
      alt: fromImg('alt'),
      title: fromImg('title'),
      width: fromImg('width'),
      height: fromImg('height'),
      caption: {
        default: '',
        parseHTML: (element: HTMLElement) => element.querySelector('figcaption')?.textContent?.trim() ?? '',
        renderHTML: () => ({}),
      },
    };
  },

  parseHTML() {
    // A figure without a picture (a captioned quote, a table) is not this node.
    return [
      {
        tag: 'figure',
        getAttrs: (element) => (imgOf(element as HTMLElement)?.getAttribute('src') ? {} : false),
      },
    ];
  },

  renderHTML({ node }) {
    const { src, alt, title, width, height, caption } = node.attrs as FigureAttributes;
    const img: Record<string, string> = { src, alt: alt ?? '' };
    if (title) img.title = title;
    if (width) img.width = String(width);
    if (height) img.height = String(height);
    return caption ? ['figure', ['img', img], ['figcaption', caption]] : ['figure', ['img', img]];
  },
});
