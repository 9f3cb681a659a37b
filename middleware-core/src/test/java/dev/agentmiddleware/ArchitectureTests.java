package dev.agentmiddleware;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

@AnalyzeClasses(packages = "dev.agentmiddleware", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

	@ArchTest
	static final ArchRule coreIsFreeOfSpring = noClasses().that()
		.resideInAPackage("dev.agentmiddleware..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("org.springframework..")
		.because("middleware-core is plain Java; Spring wiring belongs in the autoconfigure module");

	@ArchTest
	static final ArchRule toolModelStaysAtTheBottom = noClasses().that()
		.resideInAPackage("dev.agentmiddleware.tool..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("dev.agentmiddleware.chain..", "dev.agentmiddleware.callrecord..")
		.because("the tool model is what the chain and the observers are built on");

	@ArchTest
	static final ArchRule packagesAreFreeOfCycles = slices().matching("dev.agentmiddleware.(*)..")
		.should()
		.beFreeOfCycles();

}
