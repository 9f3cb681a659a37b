package dev.agentmiddleware.autoconfigure;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.springframework.boot.autoconfigure.AutoConfiguration;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layout of core and the Boot module together: one auto-configuration root, no
 * package cycles, no import of an integration (MCP, Spring AI, JDBC, Redis, Bucket4j:
 * modules of their own), and {@code internal} plumbing that no API type hands out.
 */
@AnalyzeClasses(packages = "dev.agentmiddleware", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

	private static final String INTERNAL = "..internal..";

	@ArchTest
	static final ArchRule topLevelPackagesAreFreeOfCycles = slices().matching("dev.agentmiddleware.(*)..")
		.should()
		.beFreeOfCycles();

	@ArchTest
	static final ArchRule autoConfigurationPackagesAreFreeOfCycles = slices()
		.matching("dev.agentmiddleware.autoconfigure.(*)..")
		.should()
		.beFreeOfCycles();

	@ArchTest
	static final ArchRule autoConfigurationsLiveUnderTheOneRoot = classes().that()
		.areAnnotatedWith(AutoConfiguration.class)
		.should()
		.resideInAPackage("dev.agentmiddleware.autoconfigure..")
		.because("every auto-configuration has its home under dev.agentmiddleware.autoconfigure.<feature>");

	@ArchTest
	static final ArchRule theBootModuleImportsNoIntegration = noClasses().that()
		.resideInAnyPackage("dev.agentmiddleware.autoconfigure..", "dev.agentmiddleware.spring..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("io.modelcontextprotocol..", "org.springframework.ai..", "org.springframework.jdbc..",
				"io.lettuce..", "org.springframework.data.redis..", "io.github.bucket4j..")
		.because("the MCP server, Spring AI, the JDBC and Redis stores are modules of their own, which contribute "
				+ "their beans to this one");

	@ArchTest
	static final ArchRule apiTypesDoNotExposeInternalTypes = classes().that()
		.arePublic()
		.and()
		.resideOutsideOfPackage(INTERNAL)
		.should(notExposeInternalTypes())
		.because("internal types are public for the modules only (OkHttp's okhttp3.internal rule)");

	private static ArchCondition<JavaClass> notExposeInternalTypes() {
		DescribedPredicate<JavaClass> internal = JavaClass.Predicates.resideInAPackage(INTERNAL);
		return new ArchCondition<>("not expose an internal type in a public or protected signature") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				if (type.getRawSuperclass().filter(internal).isPresent()) {
					events.add(SimpleConditionEvent.violated(type, type.getName() + " extends an internal type"));
				}
				type.getRawInterfaces()
					.stream()
					.filter(internal)
					.forEach((api) -> events.add(SimpleConditionEvent.violated(type,
							type.getName() + " implements internal " + api.getName())));
				for (JavaField field : type.getFields()) {
					if (visible(field.getModifiers()) && field.getAllInvolvedRawTypes().stream().anyMatch(internal)) {
						events.add(SimpleConditionEvent.violated(field,
								field.getFullName() + " exposes an internal type"));
					}
				}
				for (JavaCodeUnit member : type.getCodeUnits()) {
					if (!visible(member.getModifiers())) {
						continue;
					}
					boolean exposes = member.getParameterTypes()
						.stream()
						.flatMap((parameter) -> parameter.getAllInvolvedRawTypes().stream())
						.anyMatch(internal)
							|| member.getReturnType().getAllInvolvedRawTypes().stream().anyMatch(internal)
							|| member.getExceptionTypes().stream().anyMatch(internal);
					if (exposes) {
						events.add(SimpleConditionEvent.violated(member,
								member.getFullName() + " exposes an internal type"));
					}
				}
			}

		};
	}

	private static boolean visible(java.util.Set<JavaModifier> modifiers) {
		return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
	}

}
