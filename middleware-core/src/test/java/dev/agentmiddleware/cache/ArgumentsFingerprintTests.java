package dev.agentmiddleware.cache;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class ArgumentsFingerprintTests {

	@Test
	void keyOrderDoesNotMatterAtAnyDepth() {
		Map<String, Object> one = new LinkedHashMap<>();
		one.put("city", "Oslo");
		one.put("stay", Map.of("nights", 3, "hotel", Map.of("stars", 4, "name", "Grand")));
		Map<String, Object> other = new LinkedHashMap<>();
		other.put("stay", new LinkedHashMap<>(Map.of("hotel", Map.of("name", "Grand", "stars", 4), "nights", 3)));
		other.put("city", "Oslo");
		assertThat(ArgumentsFingerprint.of(one)).isEqualTo(ArgumentsFingerprint.of(other))
			.hasSameHashCodeAs(ArgumentsFingerprint.of(other));
		assertThat(ArgumentsFingerprint.of(one).sha256()).isEqualTo(ArgumentsFingerprint.of(other).sha256());
	}

	@Test
	void aDtoWithoutEqualsAndAMapThatSerialiseAlikeAreTheSameArguments() {
		Stay bean = new Stay();
		bean.setNights(3);
		bean.setHotel("Grand");
		Stay same = new Stay();
		same.setNights(3);
		same.setHotel("Grand");
		assertThat(bean).isNotEqualTo(same);
		assertThat(ArgumentsFingerprint.of(Map.of("stay", bean)))
			.isEqualTo(ArgumentsFingerprint.of(Map.of("stay", same)))
			.isEqualTo(ArgumentsFingerprint.of(Map.of("stay", Map.of("nights", 3, "hotel", "Grand"))))
			.isEqualTo(ArgumentsFingerprint.of(Map.of("stay", new StayRecord(3, "Grand"))));
	}

	@Test
	void numbersAreTheSameWhenTheirJsonIsTheSame() {
		assertThat(ArgumentsFingerprint.of(Map.of("n", 1))).isEqualTo(ArgumentsFingerprint.of(Map.of("n", 1L)))
			.isNotEqualTo(ArgumentsFingerprint.of(Map.of("n", 1.0)))
			.isNotEqualTo(ArgumentsFingerprint.of(Map.of("n", "1")));
		assertThat(ArgumentsFingerprint.of(Map.of("n", new BigDecimal("2.50"))))
			.isNotEqualTo(ArgumentsFingerprint.of(Map.of("n", new BigDecimal("2.5"))));
	}

	@Test
	void nestedListsKeepTheirOrderAndArraysEqualLists() {
		assertThat(ArgumentsFingerprint.of(Map.of("ids", List.of(List.of(1, 2), List.of(3)))))
			.isNotEqualTo(ArgumentsFingerprint.of(Map.of("ids", List.of(List.of(2, 1), List.of(3)))))
			.isEqualTo(ArgumentsFingerprint.of(Map.of("ids", new int[][] { { 1, 2 }, { 3 } })));
	}

	@Test
	void nearValuesNeverShareAFingerprint() {
		Set<ArgumentsFingerprint> fingerprints = new HashSet<>();
		Set<String> hashes = new HashSet<>();
		int made = 0;
		for (int i = 0; i < 2000; i++) {
			List<Map<String, Object>> near = List.of(Map.of("n", i), Map.of("n", i + 0.5), Map.of("n", "" + i),
					Map.of("s", "a" + i), Map.of("s", Map.of("a", i)), Map.of("s", List.of(i, i + 1)));
			for (Map<String, Object> arguments : near) {
				ArgumentsFingerprint fingerprint = ArgumentsFingerprint.of(arguments);
				fingerprints.add(fingerprint);
				hashes.add(fingerprint.sha256());
				made++;
			}
		}
		assertThat(fingerprints).hasSize(made);
		assertThat(hashes).hasSize(made);
		assertThat(ArgumentsFingerprint.of(Map.of("s", "ab", "t", "c")))
			.isNotEqualTo(ArgumentsFingerprint.of(Map.of("s", "a", "t", "bc")));
	}

	@Test
	void theSha256IsTheOneApprovalsStoredBeforeTheFingerprint() throws Exception {
		// The former approval hash: SHA-256 of the JSON tree written with its properties
		// sorted
		JsonMapper former = JsonMapper.builder()
			.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
			.enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
			.enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
			.build();
		Stay bean = new Stay();
		bean.setNights(2);
		bean.setHotel("Inn");
		List<Map<String, Object>> samples = List.of(Map.of("path", "a.txt"),
				Map.of("path", "a.txt", "apiToken", "s3cr3t", "nested", Map.of("z", 1, "a", List.of(1.5, true))),
				Map.of("stay", bean, "guests", 2), Map.of("stay", new StayRecord(4, "Grand"), "note", "späť"));
		for (Map<String, Object> arguments : samples) {
			String json = former.writeValueAsString(former.valueToTree(arguments));
			String expected = HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(json.getBytes(StandardCharsets.UTF_8)));
			assertThat(ArgumentsFingerprint.of(arguments).sha256()).as(json).isEqualTo(expected);
		}
	}

	@Test
	void argumentsJacksonCannotWriteCountByTheirText() {
		Map<String, Object> arguments = Map.of("stream", new Unwritable("x"));
		assertThat(ArgumentsFingerprint.ofSerializable(arguments)).isNull();
		assertThat(ArgumentsFingerprint.of(arguments))
			.isEqualTo(ArgumentsFingerprint.of(Map.of("stream", "unwritable x")));
	}

	@Test
	void aCacheKeyPublishesTheSha256OfItsArgumentsAsOtherInstancesComputeIt() {
		Map<String, Object> scalars = Map.of("city", "Oslo", "days", 3);
		Map<String, Object> structured = Map.of("stay", new StayRecord(3, "Grand"));
		assertThat(CacheKey.of("s1", Map.copyOf(scalars)).argumentsSha256())
			.isEqualTo(ArgumentsFingerprint.of(scalars).sha256());
		assertThat(CacheKey.of(null, Map.copyOf(structured)).stored().argumentsSha256())
			.isEqualTo(ArgumentsFingerprint.of(Map.of("stay", Map.of("hotel", "Grand", "nights", 3))).sha256());
	}

	@Test
	void aStoredKeyKeepsItsArgumentsWhenTheThreadLooksUpOthers() {
		Map<String, Object> one = Map.of("stay", new StayRecord(3, "Grand"));
		Map<String, Object> other = Map.of("stay", new StayRecord(4, "Inn"));
		CacheKey stored = CacheKey.of("s1", one).stored();
		CacheKey lookup = CacheKey.of("s1", other);
		assertThat(stored).isNotEqualTo(lookup);
		assertThat(CacheKey.of("s1", one)).isEqualTo(stored).hasSameHashCodeAs(stored);
		assertThat(CacheKey.of("s2", one)).isNotEqualTo(stored);
	}

	@Test
	void toStringShowsNoArgumentValue() {
		assertThat(ArgumentsFingerprint.of(Map.of("password", "hunter2")).toString()).doesNotContain("hunter2")
			.startsWith("ArgumentsFingerprint[");
	}

	record StayRecord(int nights, String hotel) {
	}

	public static final class Stay {

		private int nights;

		private String hotel = "";

		public int getNights() {
			return this.nights;
		}

		public void setNights(int nights) {
			this.nights = nights;
		}

		public String getHotel() {
			return this.hotel;
		}

		public void setHotel(String hotel) {
			this.hotel = hotel;
		}

	}

	static final class Unwritable {

		private final String name;

		Unwritable(String name) {
			this.name = name;
		}

		public Object getSelf() {
			return this; // a cycle Jackson refuses
		}

		@Override
		public String toString() {
			return "unwritable " + this.name;
		}

	}

}
