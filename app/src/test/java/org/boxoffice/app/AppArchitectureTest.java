package org.boxoffice.app;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.boxoffice.app.catalog.CatalogService;
import org.boxoffice.app.catalog.HoldDefaults;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.holds.HoldRule;
import org.boxoffice.app.holds.HoldRules;
import org.boxoffice.app.holds.HoldsService;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.app.ops.RefereeMetrics;
import org.boxoffice.app.payments.PaymentProvider;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.grid.Allowances;
import org.boxoffice.grid.Inventory;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.ShowSnapshot;
import org.boxoffice.grid.ShowSnapshots;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the app's layout promises, checked on the compiled classes. */
class AppArchitectureTest {

    private static final JavaClasses APP = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.boxoffice.app");

    @Test
    void packages_formNoCycles_theRootWiresThemAndNothingDependsOnIt() {
        // every package its own slice, the root (Main, Boxoffice, AppSettings) included
        slices().matching("org.boxoffice.(**)").should().beFreeOfCycles().check(APP);
    }

    /**
     * Refusals travel as values up to the web layer; {@link ApiException} is for the web layer
     * itself: {@code app.http}, the {@code *Service} classes, and the two request guards that read
     * the request's headers (the caller's token, the queue pass and rate limits).
     */
    @Test
    void apiException_onlyAtTheHttpEdge() {
        Set<String> guards = Set.of("Authenticator", "AdmissionGate");
        Set<String> notYet = Set.of();
        noClasses().that().resideOutsideOfPackage("org.boxoffice.app.http..")
                .and().haveSimpleNameNotEndingWith("Service")
                .and(new DescribedPredicate<>("are not a request guard or listed as not converted yet") {
                    @Override
                    public boolean test(com.tngtech.archunit.core.domain.JavaClass c) {
                        String top = c.getName().substring(c.getPackageName().length() + 1).split("\\$")[0];
                        return !guards.contains(top) && !notYet.contains(top);
                    }
                })
                .should().dependOnClassesThat().areAssignableTo(ApiException.class)
                .check(APP);
    }

    /**
     * Which payment provider runs is configuration ({@code PaymentProviders}): outside the payments
     * package nothing names a provider class or its settings, so adding one changes nothing there.
     */
    @Test
    void paymentProviders_areKnownOnlyThroughTheirInterface_outsideThePaymentsPackage() {
        noClasses().that().resideOutsideOfPackage("org.boxoffice.app.payments..")
                .should().dependOnClassesThat(new DescribedPredicate<com.tngtech.archunit.core.domain.JavaClass>(
                        "are a payment provider or a provider's settings") {
                    @Override
                    public boolean test(com.tngtech.archunit.core.domain.JavaClass c) {
                        return !c.isInterface() && (c.isAssignableTo(PaymentProvider.class)
                                || c.isAssignableTo(PaymentProvider.Settings.class));
                    }
                })
                .check(APP);
    }

    /** Seats are changed through {@code Seats} only: it keeps allowance, blocks, rollback and snapshot in step. */
    @Test
    void nothingInTheApp_changesSeatsBehindSeats() {
        // Boxoffice wires the allowances into Seats; nobody else may reach them
        noClasses().that().doNotHaveFullyQualifiedName(Boxoffice.class.getName())
                .should().dependOnClassesThat().areAssignableTo(Allowances.class).check(APP);
        noClasses().should().callMethodWhere(changesSeats()).check(APP);
    }

    /**
     * A hold request's rules are evaluated in one place, in one order: {@link HoldRules}. The fast
     * gate and the full path are that one evaluation, so no rule is checked twice or in another order.
     */
    @Test
    void holdRules_areEvaluatedByThePipelineOnly_andChangeNothing() {
        noClasses().that().doNotHaveFullyQualifiedName(HoldRules.class.getName())
                .should().callMethodWhere(new DescribedPredicate<>("a hold rule's check") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return call.getTargetOwner().isAssignableTo(HoldRule.class) && call.getName().equals("check");
                    }
                }).check(APP);
        classes().that().implement(HoldRule.class)
                .should().haveSimpleNameEndingWith("Rule")
                .andShould().resideInAPackage("org.boxoffice.app.holds")
                .andShould().notBePublic()
                .check(APP);
        // a rule refuses or lets pass; claims come after every rule, in the hold manager
        noClasses().that().implement(HoldRule.class)
                .should().dependOnClassesThat().areAssignableTo(Seats.class)
                .orShould().dependOnClassesThat().areAssignableTo(Inventory.class)
                .orShould().dependOnClassesThat().areAssignableTo(Allowances.class)
                .check(APP);
    }

    /**
     * A request's size is judged by one rule, {@code HoldSizeRule}, for a hold and a waitlist join
     * alike (the waitlist passes the hold rules' {@link HoldRules#showsTerms}): nothing else asks the
     * show's policy whether a size is allowed.
     */
    @Test
    void theSizeOfARequest_isJudgedByTheHoldSizeRuleAlone() {
        noClasses().that().doNotHaveFullyQualifiedName("org.boxoffice.app.holds.HoldSizeRule")
                .should().callMethod(HoldPolicy.class, "checkSize", int.class)
                .check(APP);
    }

    /** The hold endpoint decides no hold rule itself: it finds no show and reads no seat map. */
    @Test
    void theHoldEndpoint_leavesEveryHoldRuleToThePipeline() {
        noClasses().that().areAssignableTo(HoldsService.class)
                .should().dependOnClassesThat().areAssignableTo(ShowDirectory.class)
                .orShould().dependOnClassesThat().areAssignableTo(ShowSnapshots.class)
                .orShould().dependOnClassesThat().areAssignableTo(ShowSnapshot.class)
                .check(APP);
    }

    /**
     * How long a hold lasts is {@link HoldPolicy}'s to decide ({@code expiresAt}, {@code extendedForPayment},
     * ...): nothing in the app adds the show's hold duration to a clock itself. The catalog shows it.
     */
    @Test
    void holdLifetimes_areDecidedByHoldPolicy() {
        noClasses().that().doNotHaveFullyQualifiedName(CatalogService.class.getName())
                .should().callMethod(HoldPolicy.class, "holdMillis")
                .check(APP);
    }

    /**
     * Every refusal's status and code come from the one table, {@link Refusals}: it alone makes an
     * {@link ApiException} (whose constructor the http package keeps to itself).
     */
    @Test
    void refusals_areAnsweredFromTheOneTable() {
        noClasses().that().doNotHaveFullyQualifiedName(Refusals.class.getName())
                .should().callConstructorWhere(new DescribedPredicate<>("an ApiException's constructor") {
                    @Override
                    public boolean test(com.tngtech.archunit.core.domain.JavaConstructorCall call) {
                        return call.getTargetOwner().isAssignableTo(ApiException.class);
                    }
                })
                .check(APP);
    }

    /**
     * One refusal vocabulary: a business refusal travels as the domain's {@link Outcome.Refused},
     * whatever was asked (a hold, a checkout, a waitlist join), up to the one table that answers it.
     * A sealed outcome of the app's own could not have that record as a case (a sealed type's cases
     * sit in its package), so a second {@code Refused} record would keep its {@link Rejection} in a
     * field: no class in the app does.
     */
    @Test
    void aRefusal_isTheDomainsOutcomeRefused_noTypeOfTheAppKeepsARejection() {
        noFields().should().haveRawType(Rejection.class).check(APP);
    }

    /**
     * Each module registers the meters of what it measures (the waitlists' lengths in the waitlist
     * module, the outboxes' backlog in mail, the member's and the referee's in ops); the wiring
     * (Main, Boxoffice, AppSettings) registers and counts none.
     */
    @Test
    void theWiring_registersNoMetric() {
        noClasses().that().resideInAPackage("org.boxoffice.app")
                .should().callMethodWhere(new DescribedPredicate<>("a metric's registration") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return call.getTargetOwner().isAssignableTo(OpsMetrics.class)
                                && Set.of("counter", "gauge", "histogram", "timer", "count").contains(call.getName());
                    }
                })
                .check(APP);
    }

    /**
     * Only the wiring knows the mapstore: every module reaches PostgreSQL through the domain's ports
     * ({@code BookingRepository}, {@code TicketPolicyRepository}, {@code IdempotencyReplies},
     * {@code RefereeStats}, {@code MailOutbox}, ...) and hears of its failures as the domain's
     * {@code RefereeException}, as the grid does. The wiring ({@link Boxoffice}, {@link Main} and the
     * {@link DatabaseSettings} they read) picks the implementations and hands them over.
     */
    @Test
    void onlyTheWiring_dependsOnTheMapstore() {
        Set<String> wiring = Set.of(Boxoffice.class.getName(), Main.class.getName(), DatabaseSettings.class.getName());
        noClasses().that(new DescribedPredicate<>("are not the wiring") {
                    @Override
                    public boolean test(com.tngtech.archunit.core.domain.JavaClass c) {
                        return !wiring.contains(c.getName().split("\\$")[0]);
                    }
                })
                .should().dependOnClassesThat().resideInAPackage("org.boxoffice.mapstore..")
                .check(APP);
    }

    /**
     * One place builds each repository: {@link Boxoffice} builds every implementation of a port (and
     * each outbox) once, and hands it to the modules that use it, the demo catalog's seed included;
     * no module builds its own, and {@link Main} builds none beside it.
     */
    @Test
    void repositories_areBuiltByBoxofficeAlone() {
        noClasses().that().doNotHaveFullyQualifiedName(Boxoffice.class.getName())
                .should().callConstructorWhere(new DescribedPredicate<>("the constructor of a port's implementation") {
                    @Override
                    public boolean test(com.tngtech.archunit.core.domain.JavaConstructorCall call) {
                        com.tngtech.archunit.core.domain.JavaClass owner = call.getTargetOwner();
                        return owner.getPackageName().equals("org.boxoffice.mapstore") && owner.getAllRawInterfaces()
                                .stream().anyMatch(i -> i.getPackageName().startsWith("org.boxoffice."));
                    }
                })
                .orShould().callMethodWhere(new DescribedPredicate<>("an outbox's factory or statement on a data source") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return call.getTargetOwner().getName().equals("org.boxoffice.mapstore.PostgresMailOutbox")
                                && Set.of("ticketMails", "offerMails", "messages", "smsToEmail", "backlog").contains(call.getName());
                    }
                })
                .check(APP);
    }

    /** The referee's meters ({@code boxoffice_referee_*}) are registered in one class, {@link RefereeMetrics}. */
    @Test
    void theRefereesMeters_areRegisteredByRefereeMetricsAlone() throws java.io.IOException {
        java.nio.file.Path main = java.nio.file.Path.of("src/main/java");
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(main)) {
            List<String> naming = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> {
                        try {
                            return java.nio.file.Files.readString(f).contains("\"boxoffice_referee_");
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .map(f -> f.getFileName().toString()).toList();
            assertEquals(List.of("RefereeMetrics.java"), naming);
        }
    }

    /**
     * Settings belong to the module they configure: configuration is read by that module's settings
     * record ({@code *Settings.from(Config)}, the catalog's {@code HoldDefaults}) and by {@link Main},
     * which reads it once; payment providers read their own settings by name.
     */
    @Test
    void configuration_isReadBySettingsRecords() {
        noClasses().that().resideOutsideOfPackage("org.boxoffice.app.payments..")
                .and().haveSimpleNameNotEndingWith("Settings")
                .and().doNotHaveFullyQualifiedName(Main.class.getName())
                .and().doNotHaveFullyQualifiedName(HoldDefaults.class.getName())
                .should().dependOnClassesThat().resideInAPackage("io.helidon.config..")
                .check(APP);
    }

    private static DescribedPredicate<JavaMethodCall> changesSeats() {
        return new DescribedPredicate<>("a block processor, or the snapshot's record") {
            @Override
            public boolean test(JavaMethodCall call) {
                String owner = call.getTargetOwner().getName();
                String name = call.getName();
                return owner.equals(Inventory.class.getName()) && Set.of("execute", "executeAll", "hold", "evict").contains(name)
                        || owner.equals(ShowSnapshots.class.getName()) && name.equals("record");
            }
        };
    }
}
