// The reference serialiser for the byte-identity proof: the same sink calls, rendered by
// xmlbuilder2's document API with the formatting our chunk writer promises.
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { XmlSink } from '../../../src/formats/xml/xml-sink.js';

export class XmlBuilder2Sink implements XmlSink {
  readonly doc = create({ version: '1.0', encoding: 'UTF-8' });
  private stack: XMLBuilder[] = [];

  open(name: string, attributeName?: string, attributeValue?: string): void {
    this.stack.push(this.element(name, attributeName, attributeValue));
  }

  leaf(name: string, text: string, attributeName?: string, attributeValue?: string): void {
    const element = this.element(name, attributeName, attributeValue);
    // xmlbuilder2 leaves "&name;" and "&#N;" alone, taking them for entity references it was
    // given on purpose; our values are plain text, so every "&" is escaped up front (the
    // serialiser then sees "&amp;" and leaves it as it is).
    if (text !== '') element.txt(text.replace(/&/g, '&amp;'));
  }

  close(): void {
    this.stack.pop();
  }

  end(): string {
    return this.doc.end({ prettyPrint: true, indent: '  ', newline: '\n' });
  }

  private element(name: string, attributeName?: string, attributeValue?: string): XMLBuilder {
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) {
      // The root: our only root attribute is the default namespace.
      if (attributeName !== 'xmlns' || attributeValue === undefined) throw new Error('root needs xmlns');
      return this.doc.ele(attributeValue, name);
    }
    return attributeName === undefined ? parent.ele(name) : parent.ele(name, { [attributeName]: attributeValue ?? '' });
  }
}
