package org.boxoffice.grid;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
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
    void onlySeats_changesSeats() {
        // the block processors, a block's eviction and the snapshot's record are Seats' own steps; the
        // account's allowance is shared with Admissions, which counts admissions against it
        noClasses().that().doNotHaveFullyQualifiedName(Seats.class.getName())
                .and().doNotHaveFullyQualifiedName(Inventory.class.getName())
                .and().doNotHaveFullyQualifiedName(Allowances.class.getName())
                .and().doNotHaveFullyQualifiedName(Admissions.class.getName())
                .should().callMethodWhere(new DescribedPredicate<JavaMethodCall>("a seat-changing step") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        String owner = call.getTargetOwner().getFullName();
                        String name = call.getName();
                        return owner.equals(Inventory.class.getName())
                                && Set.of("execute", "executeAll", "hold", "evict").contains(name)
                                || owner.equals(ShowSnapshots.class.getName()) && name.equals("record")
                                || owner.equals(Allowances.class.getName()) && !name.equals("<init>");
                    }
                })
                .check(GRID);
    }

    @Test
    void onlyAdmissions_changesAdmissions() {
        noClasses().that().doNotHaveFullyQualifiedName(Admissions.class.getName())
                .and().resideOutsideOfPackage("org.boxoffice.grid.serialization..")
                .should().callConstructor(StripeProcessor.class, StripeCommand.class)
                .check(GRID);
    }

    /** Expiries come from {@link org.boxoffice.domain.HoldPolicy}: nothing here adds the show's hold duration to a clock. */
    @Test
    void holdLifetimes_areDecidedByHoldPolicy() {
        noClasses().should().callMethod(org.boxoffice.domain.HoldPolicy.class, "holdMillis").check(GRID);
    }

    @Test
    void grid_neverTalksHttpOrSqlItself() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.helidon..", "java.sql..", "org.postgresql..")
                .check(GRID);
    }
}
