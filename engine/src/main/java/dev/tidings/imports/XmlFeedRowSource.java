package dev.tidings.imports;

import dev.tidings.StoredText;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.OptionalInt;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.jspecify.annotations.Nullable;

/**
 * A product feed in RSS 2.0 or Atom 1.0 with Google Merchant Center's {@code g:} namespace, streamed with
 * StAX: each {@code item} (RSS) or {@code entry} (Atom) is a row, its child elements its fields by their local
 * name in snake_case ({@code g:image_link} is the field {@code imageLink}). A {@code g:} element wins over a
 * plain one of the same name (RSS's own {@code title}, {@code link}, {@code description}; Atom's {@code title},
 * {@code link href}, {@code summary}); of repeated elements the first counts, except {@code
 * additional_image_link}, whose values are joined with commas as in the tab-separated format. Elements the
 * schema does not name and structured ones (such as {@code g:shipping}) are skipped. A row's line is where
 * its {@code item} or {@code entry} starts.
 *
 * <p>The parser is hardened against hostile feeds: a document type declaration is refused outright (so
 * neither external entities nor entity expansion can happen), external DTDs and schemas are never fetched,
 * and the JDK's limits on depth, names and attributes hold. Memory is bounded before it is spent, whatever
 * the file: text arrives in chunks (the parser does not coalesce it) and only a field's first {@link
 * ImportLimits#MAX_FIELD_CHARS} characters are kept; a run of text longer than {@link
 * ImportLimits#MAX_RECORD_CHARS} characters refuses the file as it is counted; and what the parser holds
 * whole (a tag with its attributes, a comment, a CDATA section, a processing instruction) may not take more
 * than {@link ImportLimits#MAX_XML_EVENT_BYTES} bytes of the file, counted under the parser by a {@link
 * ReadBudget} renewed at every event.
 */
final class XmlFeedRowSource implements RowSource {
  static final String MERCHANT_NAMESPACE = "http://base.google.com/ns/1.0";
  static final String ATOM_NAMESPACE = "http://www.w3.org/2005/Atom";
  private static final String ADDITIONAL_IMAGES = "additional_image_link";
  /** Most child elements one item may have: a real one has a few dozen. */
  static final int MAX_ELEMENTS_PER_ITEM = 1000;

  private static final XMLInputFactory FACTORY = hardenedFactory();

  private final ReadBudget budget;
  private final XMLStreamReader xml;
  private final RowSchema schema;
  private final boolean[] fromMerchant;
  private long line;
  private @Nullable String problem;
  /** Characters of the run of text being read: its chunks and CDATA sections so far. */
  private long textChars;

  /** The line where that run of text starts. */
  private long textLine;

  XmlFeedRowSource(InputStream in, RowSchema schema) {
    this.schema = schema;
    this.fromMerchant = new boolean[schema.size()];
    this.budget = new ReadBudget(in, ImportLimits.MAX_XML_EVENT_BYTES);
    try {
      this.xml = FACTORY.createXMLStreamReader(budget);
    } catch (XMLStreamException e) {
      throw malformed(e, 1);
    } catch (ReadBudget.Exhausted e) {
      throw tooLong(1);
    } catch (RuntimeException e) {
      throw parserFailure(e, 1);
    }
  }

  private static XMLInputFactory hardenedFactory() {
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    // only the five predefined entities (&gt; ...) can be referenced once a DTD is refused
    factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
    factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    // text comes in chunks of the parser's buffer (16 KiB), so that none is held whole uncounted
    factory.setProperty(XMLInputFactory.IS_COALESCING, false);
    factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    factory.setProperty("jdk.xml.entityExpansionLimit", "64");
    factory.setProperty("jdk.xml.maxElementDepth", "64");
    factory.setProperty("jdk.xml.elementAttributeLimit", "100");
    return factory;
  }

  @Override
  public boolean next(RowFields fields) throws IOException {
    fields.clear();
    Arrays.fill(fromMerchant, false);
    problem = null;
    try {
      while (xml.hasNext()) {
        int event = advance();
        if (event == XMLStreamConstants.DTD) {
          throw new MalformedFileException(
              xml.getLocation().getLineNumber(),
              "a product feed may not have a document type declaration (<!DOCTYPE>): it is refused"
                  + " so that no entity can be expanded or fetched");
        }
        if (event == XMLStreamConstants.ENTITY_REFERENCE) {
          throw new MalformedFileException(
              xml.getLocation().getLineNumber(),
              "unknown entity &" + xml.getLocalName() + "; near line "
                  + xml.getLocation().getLineNumber());
        }
        if (event == XMLStreamConstants.START_ELEMENT && isItem()) {
          line = xml.getLocation().getLineNumber();
          readItem(fields);
          return true;
        }
      }
      return false;
    } catch (XMLStreamException e) {
      throw malformed(e, line);
    } catch (RuntimeException e) {
      throw parserFailure(e, line);
    }
  }

  /**
   * The parser's next event, within the limits: its bytes within the budget, a run of text within
   * {@link ImportLimits#MAX_RECORD_CHARS} characters.
   */
  private int advance() throws XMLStreamException {
    long startsAt = currentLine();
    budget.renew();
    int event;
    try {
      event = xml.next();
    } catch (ReadBudget.Exhausted e) {
      throw tooLong(startsAt);
    }
    if (isText(event)) {
      if (textChars == 0) textLine = startsAt;
      textChars += xml.getTextLength();
      if (textChars > ImportLimits.MAX_RECORD_CHARS) {
        throw new MalformedFileException(
            textLine,
            "the text at line " + textLine + " is longer than " + ImportLimits.MAX_RECORD_CHARS
                + " characters: the file is refused");
      }
    } else {
      textChars = 0;
    }
    return event;
  }

  private static boolean isText(int event) {
    return event == XMLStreamConstants.CHARACTERS
        || event == XMLStreamConstants.CDATA
        || event == XMLStreamConstants.SPACE;
  }

  /** The line the parser stands on: where the next event starts. */
  private long currentLine() {
    int at = xml.getLocation().getLineNumber();
    return at < 1 ? Math.max(1, line) : at;
  }

  private static MalformedFileException tooLong(long at) {
    return new MalformedFileException(
        at,
        "the XML at line " + at + " has a tag, comment, CDATA section or processing instruction"
            + " longer than " + ImportLimits.MAX_XML_EVENT_BYTES + " bytes: the file is refused");
  }

  /**
   * The JDK's parser throws unchecked exceptions of its own on some broken input (a missing message
   * resource for a bad character in a DTD, for one): the file is unreadable XML all the same. A broken
   * gzip layer and the file's own refusals pass unchanged.
   */
  private RuntimeException parserFailure(RuntimeException e, long fallbackLine) {
    if (e instanceof MalformedFileException
        || e instanceof BulkImporter.BrokenGzip
        || e instanceof CompressionBomb) return e;
    if (e instanceof ReadBudget.Exhausted) return tooLong(Math.max(1, fallbackLine));
    long at = fallbackLine;
    try {
      if (xml != null && xml.getLocation() != null && xml.getLocation().getLineNumber() > 0)
        at = xml.getLocation().getLineNumber();
    } catch (RuntimeException ignored) {
      // no location to tell: the line of the item (or 1) stands
    }
    return new MalformedFileException(
        Math.max(1, at),
        "unreadable XML near line " + Math.max(1, at) + ": " + e.getClass().getSimpleName());
  }

  /** An RSS {@code item} (no namespace) or an Atom {@code entry}. */
  private boolean isItem() {
    String name = xml.getLocalName();
    String namespace = namespace();
    return (name.equals("item") && namespace.isEmpty())
        || (name.equals("entry") && namespace.equals(ATOM_NAMESPACE));
  }

  private String namespace() {
    String namespace = xml.getNamespaceURI();
    return namespace == null ? "" : namespace;
  }

  private void readItem(RowFields fields) throws XMLStreamException {
    int elements = 0;
    while (true) {
      int event = advance();
      if (event == XMLStreamConstants.END_ELEMENT) return;
      if (event == XMLStreamConstants.ENTITY_REFERENCE) {
        throw new MalformedFileException(
            xml.getLocation().getLineNumber(), "unknown entity &" + xml.getLocalName() + ";");
      }
      if (event != XMLStreamConstants.START_ELEMENT) continue;
      if (++elements > MAX_ELEMENTS_PER_ITEM) {
        throw new MalformedFileException(
            line,
            "the item at line " + line + " has more than " + MAX_ELEMENTS_PER_ITEM + " elements");
      }
      readField(fields);
    }
  }

  /** One child element of an item: stored when the schema names it, skipped otherwise. */
  private void readField(RowFields fields) throws XMLStreamException {
    String namespace = namespace();
    boolean merchant = namespace.equals(MERCHANT_NAMESPACE);
    String name = xml.getLocalName().toLowerCase(Locale.ROOT);
    if (!merchant && namespace.equals(ATOM_NAMESPACE)) {
      if (name.equals("summary") || name.equals("content")) name = "description";
      else if (!name.equals("title") && !name.equals("link")) name = "";
    } else if (!merchant && !namespace.isEmpty()) {
      name = "";
    }
    OptionalInt index = name.isEmpty() ? OptionalInt.empty() : schema.indexOfColumn(name);
    if (index.isEmpty()) {
      skip();
      return;
    }
    String value;
    if (!merchant && namespace.equals(ATOM_NAMESPACE) && name.equals("link")) {
      String rel = xml.getAttributeValue(null, "rel");
      value = rel == null || rel.equals("alternate") ? xml.getAttributeValue(null, "href") : null;
      skip();
    } else {
      value = text();
    }
    if (value == null) return;
    value = value.strip();
    if (value.isEmpty()) return;
    int field = index.getAsInt();
    boolean given = fields.isGiven(field);
    if (given && merchant && fromMerchant[field] && name.equals(ADDITIONAL_IMAGES)) {
      value = fields.text(field) + "," + value;
    } else if (given && (fromMerchant[field] || !merchant)) {
      return;
    }
    if (value.length() > ImportLimits.MAX_FIELD_CHARS) {
      problem = schema.field(field).name() + " is longer than " + ImportLimits.MAX_FIELD_CHARS
          + " characters";
      return;
    }
    String unstorable = problem == null ? StoredText.problem(value) : null;
    if (unstorable != null) problem = schema.field(field).name() + " " + unstorable;
    fields.setText(field, value);
    fromMerchant[field] = merchant;
  }

  /**
   * The element's text; null (and the element skipped) when it holds elements instead. Past {@link
   * ImportLimits#MAX_FIELD_CHARS} characters the rest is read but not kept: the value is too long
   * whatever follows.
   */
  private @Nullable String text() throws XMLStreamException {
    var text = new StringBuilder();
    while (true) {
      int event = advance();
      switch (event) {
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
          if (text.length() <= ImportLimits.MAX_FIELD_CHARS) {
            text.append(xml.getTextCharacters(), xml.getTextStart(), xml.getTextLength());
          }
        }
        case XMLStreamConstants.END_ELEMENT -> {
          return text.toString();
        }
        case XMLStreamConstants.START_ELEMENT -> {
          skip();
          skip();
          return null;
        }
        case XMLStreamConstants.ENTITY_REFERENCE ->
          throw new MalformedFileException(
              xml.getLocation().getLineNumber(), "unknown entity &" + xml.getLocalName() + ";");
        default -> {
          // comments and processing instructions carry no value
        }
      }
    }
  }

  /** Skips to the end of the element just started, whatever it holds. */
  private void skip() throws XMLStreamException {
    int depth = 1;
    while (depth > 0) {
      int event = advance();
      if (event == XMLStreamConstants.START_ELEMENT) depth++;
      else if (event == XMLStreamConstants.END_ELEMENT) depth--;
    }
  }

  private static MalformedFileException malformed(XMLStreamException e, long fallbackLine) {
    long at = e.getLocation() == null || e.getLocation().getLineNumber() < 1
        ? Math.max(1, fallbackLine)
        : e.getLocation().getLineNumber();
    if (e.getCause() instanceof RuntimeException runtime
        && !(runtime instanceof MalformedFileException)) {
      throw runtime;
    }
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    // the JDK puts "ParseError at [row,col]:[3,4]\nMessage: ..." in front of the reason
    int reason = message.indexOf("Message: ");
    if (reason >= 0) message = message.substring(reason + "Message: ".length());
    int newline = message.indexOf('\n');
    if (newline >= 0) message = message.substring(0, newline);
    return new MalformedFileException(at, "unreadable XML near line " + at + ": " + message);
  }

  @Override
  public long line() {
    return line;
  }

  @Override
  public @Nullable String problem() {
    return problem;
  }

  @Override
  public void close() throws IOException {
    try {
      xml.close();
    } catch (XMLStreamException e) {
      throw new IOException(e);
    }
  }
}
