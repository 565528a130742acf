package org.boxoffice.bench;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The bench's packages depend on each other in one direction: the HTTP client knows nothing of the load it carries. */
class BenchArchitectureTest {

    @Test
    void packages_formNoCycles() {
        slices().matching("org.boxoffice.(**)").should().beFreeOfCycles()
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("org.boxoffice.bench"));
    }
}
