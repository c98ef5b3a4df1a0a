package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The import framework shows capabilities only what a kind of import plugs in with and what a run
 * answers; its machinery (sources, chunks, the merger, the error log) stays inside the package, free
 * to change.
 */
class ImportSurfaceTest {
  @Test
  void only_the_plug_in_interface_of_the_import_framework_is_public() {
    var classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.tidings.imports");
    var exported = classes.stream()
        .filter(type -> type.getPackageName().equals("dev.tidings.imports"))
        .filter(JavaClass::isTopLevelClass)
        .filter(type -> type.getModifiers().contains(JavaModifier.PUBLIC))
        .map(JavaClass::getSimpleName)
        .toList();
    assertThat(exported)
        .containsExactlyInAnyOrder(
            "BulkImporter",
            "CopyRowWriter",
            "FieldSpec",
            "FieldType",
            "Format",
            "ImportFailedException",
            "ImportKind",
            "ImportMode",
            "ImportOptions",
            "ImportReport",
            "JsonRows",
            "RowError",
            "RowFields",
            "RowMapper",
            "RowReader",
            "RowSchema",
            "Staging",
            "StringMaps");
  }
}
