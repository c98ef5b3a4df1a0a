/** Bulk import of CSV and JSON Lines files into PostgreSQL: parse, validate, COPY, merge, report. */
@NullMarked
package dev.tidings.imports;

import org.jspecify.annotations.NullMarked;
