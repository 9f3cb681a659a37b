package dev.agentmiddleware.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import com.google.i18n.phonenumbers.PhoneNumberUtil.Leniency;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.results.EmailDetector;
import dev.agentmiddleware.results.IbanDetector;
import dev.agentmiddleware.results.PaymentCardDetector;
import dev.agentmiddleware.results.PhoneNumberDetector;
import dev.agentmiddleware.results.ResultGuardMiddleware;
import dev.agentmiddleware.results.ResultPolicy;
import dev.agentmiddleware.results.ResultPolicy.OnExceed;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the personal-data result guard costs per call: a tool's result through the result
 * guard (secrets redacted, no size limit) with personal data masking off, and on with the
 * four built-in detectors (region {@code DE}, leniency {@code VALID}). Four results: a
 * text of about 600 characters holding one of each kind, the same length of plain prose
 * holding none (what most results are), a record of five strings holding one of each
 * kind, and a short plain text such as the load test's tools return.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PersonalDataBenchmark {

	private static final String PROSE = "The quarterly report lists 14 open tickets, 3 of them older than 30 days. "
			+ "Most concern the export job, which fails when the upstream feed is late; the rest are small layout "
			+ "issues in the dashboard. The team proposes to retry the export twice before failing and to alert "
			+ "on the third failure. Release 2.4 is planned for the second week of the month, after the freeze. ";

	private static final String CUSTOMER = "Customer Alice Smith (alice.smith@example.com, +49 30 1234567) paid "
			+ "order 4711-0815 on 2024-11-05 with card 4111 1111 1111 1111; refunds go to IBAN DE89 3704 0044 0532 "
			+ "0130 00. She asked us to call back on 030 7654321 and to copy her assistant bob@example.org. ";

	/** Whether personal data is masked in the tool's results. */
	@Param({ "off", "on" })
	public String personalData;

	private ToolPipeline withPersonalData;

	private ToolInvocation withPersonalDataCall;

	private ToolPipeline without;

	private ToolInvocation withoutCall;

	private ToolPipeline structured;

	private ToolInvocation structuredCall;

	private ToolPipeline shortText;

	private ToolInvocation shortTextCall;

	@Setup
	public void setUp() {
		ResultPolicy policy = new ResultPolicy(ResultPolicy.UNLIMITED, OnExceed.TRUNCATE, true,
				"on".equals(this.personalData) ? List.of("email", "phone", "card", "iban") : List.of());
		ResultGuardMiddleware results = ResultGuardMiddleware.builder()
			.policies((tool) -> policy)
			.personalDataDetectors(List.of(new EmailDetector(), new PhoneNumberDetector("DE", Leniency.VALID),
					new PaymentCardDetector(), new IbanDetector()))
			.build();
		String customerText = CUSTOMER + CUSTOMER + CUSTOMER.substring(0, 180);
		String proseText = (PROSE + PROSE).substring(0, customerText.length());
		this.withPersonalData = pipeline("read_customer", String.class, customerText, results);
		this.withPersonalDataCall = ToolInvocation.builder(this.withPersonalData.tool()).build();
		this.without = pipeline("read_report", String.class, proseText, results);
		this.withoutCall = ToolInvocation.builder(this.without.tool()).build();
		Customer customer = new Customer("Alice Smith", "alice.smith@example.com", "+49 30 1234567",
				"4111 1111 1111 1111", "DE89 3704 0044 0532 0130 00");
		this.structured = pipeline("customer_record", Customer.class, customer, results);
		this.structuredCall = ToolInvocation.builder(this.structured.tool()).build();
		this.shortText = pipeline("load_echo", String.class, "load-17-4711", results);
		this.shortTextCall = ToolInvocation.builder(this.shortText.tool()).build();
	}

	private static ToolPipeline pipeline(String name, Class<?> resultType, Object result,
			ResultGuardMiddleware results) {
		ToolDescriptor tool = ToolDescriptor.builder(name)
			.safety(SafetyLevel.SAFE)
			.readOnly(true)
			.resultType(resultType)
			.build();
		return ToolPipeline.chain(new ExecutableTool(tool, (invocation) -> result), results);
	}

	@Benchmark
	public @Nullable Object textWithPersonalData() throws Exception {
		return this.withPersonalData.call(this.withPersonalDataCall);
	}

	@Benchmark
	public @Nullable Object textWithoutPersonalData() throws Exception {
		return this.without.call(this.withoutCall);
	}

	@Benchmark
	public @Nullable Object structuredWithPersonalData() throws Exception {
		return this.structured.call(this.structuredCall);
	}

	@Benchmark
	public @Nullable Object shortText() throws Exception {
		return this.shortText.call(this.shortTextCall);
	}

	/**
	 * A customer record, a structured result.
	 *
	 * @param name the name
	 * @param email the email address
	 * @param phone the phone number
	 * @param card the card number
	 * @param iban the IBAN
	 */
	public record Customer(String name, String email, String phone, String card, String iban) {
	}

}
