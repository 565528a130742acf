package org.boxoffice.grid;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** What the grid module's layout promises: packages in one direction, the member on top, no web or JDBC. */
class GridArchitectureTest {

    private static final JavaClasses GRID = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.boxoffice.grid");

    @Test
    void packages_formNoCycles() {
        // every package its own slice, the root package included
        slices().matching("org.boxoffice.(**)").should().beFreeOfCycles().check(GRID);
    }

    @Test
    void onlyTheMemberPackage_knowsTheMember() {
        noClasses().that().resideOutsideOfPackage("org.boxoffice.grid.member..")
                .should().dependOnClassesThat().resideInAPackage("org.boxoffice.grid.member..")
                .check(GRID);
    }

    @Test
    void grid_neverTalksHttpOrSqlItself() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.helidon..", "java.sql..", "org.postgresql..")
                .check(GRID);
    }
}
