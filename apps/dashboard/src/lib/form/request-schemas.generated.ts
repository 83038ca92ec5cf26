// Generated from the API's OpenAPI document (the request bodies of the dashboard's forms): do not edit.
// Regenerate with `pnpm --filter @newsroom/dashboard schemas:generate`; test/request-schemas.test.ts fails while
// it is stale. Data only: the forms validate against it in the browser (src/lib/form/validate.ts).

export const requestSchemas = {
  "signIn": {
    "type": "object",
    "required": [
      "email",
      "password"
    ],
    "properties": {
      "email": {
        "type": "string",
        "minLength": 1,
        "maxLength": 254
      },
      "password": {
        "type": "string",
        "minLength": 1,
        "maxLength": 1024
      }
    },
    "additionalProperties": false
  },
  "changePassword": {
    "type": "object",
    "required": [
      "currentPassword",
      "newPassword"
    ],
    "properties": {
      "currentPassword": {
        "type": "string",
        "minLength": 1,
        "maxLength": 1024
      },
      "newPassword": {
        "type": "string",
        "minLength": 1,
        "maxLength": 1024
      }
    },
    "additionalProperties": false
  },
  "createPublisher": {
    "type": "object",
    "required": [
      "name",
      "email",
      "password"
    ],
    "properties": {
      "name": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": "\\S"
      },
      "email": {
        "type": "string",
        "maxLength": 254,
        "pattern": "^\\s*[^@\\s]+@[^@\\s]+\\.[^@\\s]+\\s*$"
      },
      "password": {
        "type": "string",
        "minLength": 12,
        "maxLength": 72
      }
    },
    "additionalProperties": false
  },
  "updatePublisher": {
    "type": "object",
    "properties": {
      "name": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": "\\S"
      },
      "autoApprove": {
        "type": "boolean"
      },
      "defaultTags": {
        "type": "array",
        "items": {
          "type": "string",
          "maxLength": 60
        },
        "maxItems": 30
      },
      "defaultHostSites": {
        "type": "array",
        "items": {
          "type": "string",
          "maxLength": 100
        },
        "maxItems": 100
      },
      "importRules": {
        "type": "object",
        "properties": {
          "includeKeywords": {
            "type": "array",
            "items": {
              "type": "string",
              "maxLength": 200
            },
            "maxItems": 200
          },
          "excludeKeywords": {
            "type": "array",
            "items": {
              "type": "string",
              "maxLength": 200
            },
            "maxItems": 200
          },
          "tagMappings": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "from",
                "to"
              ],
              "properties": {
                "from": {
                  "type": "string",
                  "maxLength": 200
                },
                "to": {
                  "type": "string",
                  "maxLength": 200,
                  "nullable": true
                }
              },
              "additionalProperties": false
            },
            "maxItems": 1000
          },
          "maxTags": {
            "type": "number"
          },
          "defaultCategory": {
            "type": "string",
            "maxLength": 200,
            "nullable": true
          },
          "defaultSection": {
            "type": "string",
            "maxLength": 200,
            "nullable": true
          },
          "maxNewItemsPerFetch": {
            "type": "number",
            "nullable": true
          }
        },
        "additionalProperties": false
      }
    },
    "additionalProperties": false,
    "minProperties": 1
  },
  "resetPassword": {
    "type": "object",
    "required": [
      "password"
    ],
    "properties": {
      "password": {
        "type": "string",
        "minLength": 1,
        "maxLength": 1024
      }
    },
    "additionalProperties": false
  },
  "saveFeed": {
    "type": "object",
    "required": [
      "feedUrl"
    ],
    "properties": {
      "feedUrl": {
        "type": "string",
        "maxLength": 2048,
        "pattern": "^\\s*[hH][tT][tT][pP][sS]?://",
        "nullable": true
      },
      "defaultTags": {
        "type": "array",
        "items": {
          "type": "string",
          "maxLength": 60
        },
        "maxItems": 30
      }
    },
    "additionalProperties": false
  },
  "createSite": {
    "type": "object",
    "required": [
      "slug",
      "name"
    ],
    "properties": {
      "slug": {
        "type": "string",
        "minLength": 1,
        "maxLength": 63,
        "pattern": "^[a-z0-9]+(?:-[a-z0-9]+)*$"
      },
      "name": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100,
        "pattern": "\\S"
      },
      "domain": {
        "type": "string",
        "maxLength": 253,
        "pattern": "^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$",
        "nullable": true
      },
      "language": {
        "type": "string",
        "maxLength": 35,
        "pattern": "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
      },
      "articleUrlTemplate": {
        "type": "string",
        "maxLength": 500,
        "pattern": "^https?://[^\\s]*\\{slug\\}[^\\s]*$",
        "nullable": true
      },
      "allowedOrigins": {
        "type": "array",
        "items": {
          "type": "string",
          "maxLength": 300,
          "pattern": "^https?://[^\\s/?#]+/?$"
        },
        "maxItems": 50
      },
      "publicBaseUrl": {
        "type": "string",
        "maxLength": 500,
        "pattern": "^https?://[^\\s?#]+$",
        "nullable": true
      }
    },
    "additionalProperties": false
  },
  "editSite": {
    "type": "object",
    "properties": {
      "slug": {
        "type": "string",
        "minLength": 1,
        "maxLength": 63,
        "pattern": "^[a-z0-9]+(?:-[a-z0-9]+)*$"
      },
      "name": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100,
        "pattern": "\\S"
      },
      "domain": {
        "type": "string",
        "maxLength": 253,
        "pattern": "^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$",
        "nullable": true
      },
      "language": {
        "type": "string",
        "maxLength": 35,
        "pattern": "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
      },
      "articleUrlTemplate": {
        "type": "string",
        "maxLength": 500,
        "pattern": "^https?://[^\\s]*\\{slug\\}[^\\s]*$",
        "nullable": true
      },
      "allowedOrigins": {
        "type": "array",
        "items": {
          "type": "string",
          "maxLength": 300,
          "pattern": "^https?://[^\\s/?#]+/?$"
        },
        "maxItems": 50
      },
      "publicBaseUrl": {
        "type": "string",
        "maxLength": 500,
        "pattern": "^https?://[^\\s?#]+$",
        "nullable": true
      }
    },
    "additionalProperties": false,
    "minProperties": 1
  },
  "createSiteKey": {
    "type": "object",
    "required": [
      "name"
    ],
    "properties": {
      "name": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100
      }
    },
    "additionalProperties": false
  },
  "createWebhook": {
    "type": "object",
    "required": [
      "url",
      "events"
    ],
    "properties": {
      "url": {
        "type": "string",
        "minLength": 1,
        "maxLength": 2048
      },
      "events": {
        "type": "array",
        "items": {
          "anyOf": [
            {
              "type": "string",
              "enum": [
                "article.published"
              ]
            },
            {
              "type": "string",
              "enum": [
                "article.updated"
              ]
            },
            {
              "type": "string",
              "enum": [
                "article.unpublished"
              ]
            },
            {
              "type": "string",
              "enum": [
                "article.deleted"
              ]
            },
            {
              "type": "string",
              "enum": [
                "publisher.feed_failed"
              ]
            }
          ]
        },
        "minItems": 1,
        "maxItems": 5
      },
      "site": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100,
        "nullable": true
      },
      "enabled": {
        "type": "boolean"
      }
    },
    "additionalProperties": false
  },
  "editWebhook": {
    "type": "object",
    "properties": {
      "url": {
        "type": "string",
        "minLength": 1,
        "maxLength": 2048
      },
      "events": {
        "type": "array",
        "items": {
          "anyOf": [
            {
              "type": "string",
              "enum": [
                "article.published"
              ]
            },
            {
              "type": "string",
              "enum": [
                "article.updated"
              ]
            },
            {
              "type": "string",
              "enum": [
                "article.unpublished"
              ]
            },
            {
              "type": "string",
              "enum": [
                "article.deleted"
              ]
            },
            {
              "type": "string",
              "enum": [
                "publisher.feed_failed"
              ]
            }
          ]
        },
        "minItems": 1,
        "maxItems": 5
      },
      "site": {
        "type": "string",
        "minLength": 1,
        "maxLength": 100,
        "nullable": true
      },
      "enabled": {
        "type": "boolean"
      }
    },
    "additionalProperties": false,
    "minProperties": 1
  }
} as const;

export type RequestSchemaName = keyof typeof requestSchemas;
