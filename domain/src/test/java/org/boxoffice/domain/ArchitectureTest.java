package org.boxoffice.domain;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;


import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The domain stays plain Java: testable with JUnit alone, usable from every other module. */
class ArchitectureTest {

    @Test
    void domain_dependsOnNothingButTheJdk() {
        classes().that().resideInAPackage("org.boxoffice.domain..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("org.boxoffice.domain..", "java..",
                        "javax.crypto..") // the JDK's own HMAC, for the door's proof of work
                .check(new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("org.boxoffice.domain"));
    }

    @Test
    void domain_dependsOnNoFrameworkGridOrDatabase() {
        ArchRule rule = noClasses().that().resideInAPackage("org.boxoffice.domain..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "com.hazelcast..", "io.helidon..", "com.fasterxml.jackson..", "java.sql..",
                        "javax.sql..", "org.postgresql..", "com.zaxxer..", "org.flywaydb..");
        rule.check(new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.boxoffice.domain"));
    }

    /**
     * A refusal for the buyer (a {@link Rejection} and a message) is {@link Outcome.Refused}, declared
     * once. Other decisions carry their reason with what their caller needs instead of a message (the
     * seats taken, the allowance left), and the web layer words them.
     */
    @Test
    void aRejectionWithAMessage_isOutcomeRefused_declaredOnce() {
        classes().that(new DescribedPredicate<JavaClass>("keep a Rejection and a message") {
                    @Override
                    public boolean test(JavaClass c) {
                        return c.getFields().stream().map(JavaField::getRawType).anyMatch(t -> t.isEquivalentTo(Rejection.class))
                                && c.getFields().stream().map(JavaField::getRawType).anyMatch(t -> t.isEquivalentTo(String.class));
                    }
                })
                .should().be(Outcome.Refused.class)
                .check(new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("org.boxoffice.domain"));
    }
}
