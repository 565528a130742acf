package org.boxoffice.domain;

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
}
