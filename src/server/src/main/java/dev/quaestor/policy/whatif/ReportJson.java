package dev.quaestor.policy.whatif;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/** The report as JSON, for tools: every field, subjects and request ids included (it is for administrators). */
public final class ReportJson {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private ReportJson() {
    }

    public static String write(WhatIfReport report) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static WhatIfReport read(String json) throws JsonProcessingException {
        return JSON.readValue(json, WhatIfReport.class);
    }
}
