package dev.agentmiddleware.autoconfigure.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.agentmiddleware.autoconfigure.PerToolSettings.AbstractToolSettings;
import dev.agentmiddleware.autoconfigure.ToolMiddlewareProperties;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.chain.OrderedMiddleware.BuiltInOrder;
import dev.agentmiddleware.results.EmailDetector;
import dev.agentmiddleware.results.IbanDetector;
import dev.agentmiddleware.results.PaymentCardDetector;
import dev.agentmiddleware.results.PhoneNumberDetector;
import dev.agentmiddleware.results.ResultPolicy.OnExceed;
import dev.agentmiddleware.results.ResultPolicy;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of result guards: how long a tool's result may be, what happens to a
 * longer one, whether secrets in it are redacted and whether personal data in it is
 * masked, for every tool ({@code defaults}) and per tool ({@code tools.<name>}), and how
 * phone numbers are recognised. On by default for every tool: results are cut at 100,000
 * characters (the binary data of a rich result at 5 MB) and their secrets redacted;
 * personal data is masked only where it is switched on. <pre>{@code
 * agent:
 *   middleware:
 *     results:
 *       phone-region: DE
 *       defaults:
 *         max-chars: 20000
 *       tools:
 *         read-config:
 *           on-exceed: refuse
 *         show-token:
 *           redact-secrets: false
 *         lookup-customer:
 *           personal-data:
 *             enabled: true
 * }</pre>
 */
@ConfigurationProperties(ToolResultProperties.PREFIX)
class ToolResultProperties extends ToolMiddlewareProperties<ToolResultProperties.Settings, ResultPolicy> {

	/** The prefix of the result guard properties. */
	public static final String PREFIX = "agent.middleware.results";

	/**
	 * Region of phone numbers written without a country code, as a two-letter country
	 * code such as DE or US; not set: only numbers written with a country code (+49 ...)
	 * are found.
	 */
	private @Nullable String phoneRegion;

	/**
	 * How sure libphonenumber must be that a find is a phone number: possible, valid,
	 * strict-grouping or exact-grouping.
	 */
	private PhoneLeniency phoneLeniency = PhoneLeniency.VALID;

	public ToolResultProperties() {
		super(PREFIX, BuiltInOrder.RESULTS, Settings.defaults());
	}

	public @Nullable String getPhoneRegion() {
		return this.phoneRegion;
	}

	public void setPhoneRegion(@Nullable String phoneRegion) {
		this.phoneRegion = phoneRegion;
	}

	public PhoneLeniency getPhoneLeniency() {
		return this.phoneLeniency;
	}

	public void setPhoneLeniency(PhoneLeniency phoneLeniency) {
		this.phoneLeniency = phoneLeniency;
	}

	// Every tool's result is guarded.
	@Override
	protected boolean appliesByDefault(ToolDescriptor tool) {
		return true;
	}

	@Override
	protected ResultPolicy createPolicy(Settings settings) {
		Integer maxChars = settings.getMaxChars();
		DataSize maxBinarySize = settings.getMaxBinarySize();
		OnExceed onExceed = settings.getOnExceed();
		Boolean redactSecrets = settings.getRedactSecrets();
		PersonalData personalData = settings.getPersonalData();
		List<String> detectors = personalData.getDetectors();
		boolean masked = Boolean.TRUE.equals(personalData.getEnabled()) && detectors != null;
		return new ResultPolicy((maxChars != null) ? maxChars : ResultPolicy.DEFAULT_MAX_CHARS,
				(onExceed != null) ? onExceed : OnExceed.TRUNCATE, redactSecrets == null || redactSecrets,
				masked ? detectors : List.of(),
				(maxBinarySize != null) ? maxBinarySize.toBytes() : ResultPolicy.DEFAULT_MAX_BINARY_BYTES);
	}

	/**
	 * Checks that a detector finds each kind of personal data named in {@code defaults}
	 * and under {@code tools}, switched on or not, so that a typo fails startup rather
	 * than masking nothing.
	 * @param kinds the kinds the detectors find
	 * @throws InvalidToolConfigurationException naming the property of the first kind no
	 * detector finds
	 */
	void checkDetectors(Set<String> kinds) {
		checkDetectors(PREFIX + ".defaults", getDefaults().getPersonalData().getDetectors(), kinds);
		getTools().forEach((name, settings) -> checkDetectors(PREFIX + ".tools." + name,
				settings.getPersonalData().getDetectors(), kinds));
	}

	private static void checkDetectors(String settings, @Nullable List<String> detectors, Set<String> kinds) {
		if (detectors == null) {
			return;
		}
		for (String detector : detectors) {
			if (!kinds.contains(detector)) {
				String property = settings + ".personal-data.detectors";
				throw new InvalidToolConfigurationException(property, detectors, "no personal data detector finds '"
						+ detector + "'; the detectors find " + kinds.stream().sorted().toList(),
						action(property, detector));
			}
		}
	}

	private static String action(String property, String detector) {
		String library = switch (detector) {
			case PhoneNumberDetector.KIND -> "com.googlecode.libphonenumber:libphonenumber";
			case IbanDetector.KIND -> "org.iban4j:iban4j";
			default -> null;
		};
		String remove = "remove '" + detector + "' from '" + property + "'";
		if (library != null) {
			return "Add " + library + " to the application's dependencies (middleware-spring-boot-starter brings it),"
					+ " or " + remove + ".";
		}
		return "Define a PersonalDataDetector bean of kind '" + detector + "', or " + remove + ".";
	}

	/**
	 * The result guards of a tool, or of every tool in {@code defaults}.
	 *
	 * <p>
	 * {@code enabled}: Whether results are guarded: under 'defaults', for every tool not
	 * listed (not set: all); under 'tools', for that tool (not set: true).
	 */
	public static class Settings extends AbstractToolSettings<Settings> {

		/**
		 * Longest result in characters (of its text, or of its JSON text for a structured
		 * result); 0 means no limit.
		 */
		private @Nullable Integer maxChars;

		/**
		 * Most binary data of a rich result (its images, audio and embedded binary
		 * resources together); a part over it is left out, replaced by a text saying so,
		 * or refused; 0 means no limit.
		 */
		private @Nullable DataSize maxBinarySize;

		/**
		 * What happens to a longer result: truncate (cut with a marker saying how much
		 * was left out) or refuse.
		 */
		private @Nullable OnExceed onExceed;

		/**
		 * Whether secrets in the result (credentials in URLs, Authorization values,
		 * private keys, secret-named fields) are replaced by [REDACTED] before the model
		 * or client sees it.
		 */
		private @Nullable Boolean redactSecrets;

		/**
		 * Masking of personal data in the result, and in the logged arguments and result.
		 */
		@NestedConfigurationProperty
		private final PersonalData personalData = new PersonalData();

		static Settings defaults() {
			Settings defaults = new Settings();
			defaults.setMaxChars(ResultPolicy.DEFAULT_MAX_CHARS);
			defaults.setMaxBinarySize(DataSize.ofBytes(ResultPolicy.DEFAULT_MAX_BINARY_BYTES));
			defaults.setOnExceed(OnExceed.TRUNCATE);
			defaults.setRedactSecrets(true);
			defaults.getPersonalData().setEnabled(false);
			defaults.getPersonalData()
				.setDetectors(new ArrayList<>(List.of(EmailDetector.KIND, PhoneNumberDetector.KIND,
						PaymentCardDetector.KIND, IbanDetector.KIND)));
			return defaults;
		}

		public @Nullable Integer getMaxChars() {
			return this.maxChars;
		}

		public void setMaxChars(@Nullable Integer maxChars) {
			this.maxChars = maxChars;
		}

		public @Nullable DataSize getMaxBinarySize() {
			return this.maxBinarySize;
		}

		public void setMaxBinarySize(@Nullable DataSize maxBinarySize) {
			this.maxBinarySize = maxBinarySize;
		}

		public @Nullable OnExceed getOnExceed() {
			return this.onExceed;
		}

		public void setOnExceed(@Nullable OnExceed onExceed) {
			this.onExceed = onExceed;
		}

		public @Nullable Boolean getRedactSecrets() {
			return this.redactSecrets;
		}

		public void setRedactSecrets(@Nullable Boolean redactSecrets) {
			this.redactSecrets = redactSecrets;
		}

		public PersonalData getPersonalData() {
			return this.personalData;
		}

		// The personal-data group falls back to the defaults field by field, like the
		// settings' own fields.
		@Override
		public Settings withDefaults(Settings defaults) {
			Settings merged = super.withDefaults(defaults);
			PersonalData own = this.personalData;
			PersonalData fallback = defaults.getPersonalData();
			merged.personalData.setEnabled((own.getEnabled() != null) ? own.getEnabled() : fallback.getEnabled());
			merged.personalData
				.setDetectors((own.getDetectors() != null) ? own.getDetectors() : fallback.getDetectors());
			return merged;
		}

	}

	/**
	 * The masking of personal data of a tool, or of every tool in {@code defaults}.
	 */
	public static class PersonalData {

		/**
		 * Whether personal data in the result is masked before the model or client sees
		 * it, and in the logged arguments and result.
		 */
		private @Nullable Boolean enabled;

		/**
		 * Kinds of personal data masked: email, phone, card, iban, and the kinds of your
		 * PersonalDataDetector beans.
		 */
		private @Nullable List<String> detectors;

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable List<String> getDetectors() {
			return this.detectors;
		}

		public void setDetectors(@Nullable List<String> detectors) {
			this.detectors = detectors;
		}

	}

	/**
	 * How sure libphonenumber must be that a find is a phone number (its
	 * {@code PhoneNumberUtil.Leniency}).
	 */
	public enum PhoneLeniency {

		/** Any digits of a possible length for the region: order numbers too. */
		POSSIBLE,

		/**
		 * A valid number of its region, however it is grouped (libphonenumber's default).
		 */
		VALID,

		/**
		 * A valid number, grouped as is usual for its region: leaves alone some dates
		 * that are valid numbers.
		 */
		STRICT_GROUPING,

		/** A valid number, grouped exactly as its region formats it. */
		EXACT_GROUPING

	}

}
